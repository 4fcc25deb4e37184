package dev.ferry.launch.run;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class RankOutputTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private RankOutput output(boolean tag) {
        return new RankOutput(2, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), tag);
    }

    private static void write(RankOutput o, int rank, boolean isErr, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        o.write(rank, isErr, b, b.length);
    }

    @Test
    void aPromptWithoutALineEndShowsWhenTheRankWaits() {
        RankOutput o = output(false);
        write(o, 0, false, "Enter a number: ");
        long end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (out.size() == 0 && System.nanoTime() < end) {
            Thread.onSpinWait(); // the flusher's own delay is what is waited for
        }
        assertEquals("Enter a number: ", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void linesOfRanksPrintingAtOnceDoNotCutIntoEachOther() {
        RankOutput o = output(false);
        write(o, 0, false, "rank ");
        write(o, 1, false, "rank 1: done\n");
        write(o, 0, false, "0: done\n");
        assertEquals("rank 1: done\nrank 0: done\n", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void taggingPrefixesEveryLineOnceEvenAcrossPieces() {
        RankOutput o = output(true);
        write(o, 1, false, "a\nb");
        write(o, 1, false, "c\nd\n");
        write(o, 0, false, "x");
        o.ended(0, false);
        o.ended(1, false);
        assertEquals("[1] a\n[1] bc\n[1] d\n[0] x" + System.lineSeparator(), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theFirstUncaughtExceptionIsRemembered() {
        RankOutput o = output(false);
        write(o, 1, true, "warning\nException in thread \"main\" java.lang.Ille");
        assertNull(o.uncaught(1));
        write(o, 1, true, "galStateException: boom\n\tat X\nException in thread \"t2\" other\n");
        assertEquals("thread \"main\" java.lang.IllegalStateException: boom", o.uncaught(1));
        assertNull(o.uncaught(0));
    }
}
