package dev.ferry.launch.run;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The ranks' output as the launcher prints it: whole lines, so that ranks printing at once do not
 * cut into each other's lines; a line's beginning that stays without its end for
 * {@link #PARTIAL_MILLIS} (a prompt waiting for input) is shown then. Each line is prefixed with
 * {@code [RANK] } when tagging, and the first report of an uncaught exception on a rank's error
 * output is remembered to name the cause when it fails.
 */
public final class RankOutput {
    /** How long the start of a line waits for its end before it is shown alone. */
    static final long PARTIAL_MILLIS = 50;
    /** How the JVM's default handler starts its report of an uncaught exception. */
    private static final String UNCAUGHT = "Exception in thread \"";
    private static final int LINE_KEPT = 512;

    private final PrintStream out;
    private final PrintStream err;
    private final boolean tag;
    private final AtomicReferenceArray<String> uncaught;
    /** Per rank and stream (0 out, 1 err): at a line's start; the line's start not yet shown. */
    private final boolean[][] lineStart;
    private final ByteArrayOutputStream[][] partial;
    private final ByteArrayOutputStream[] errLine;
    private ScheduledExecutorService flusher;

    public RankOutput(int ranks, PrintStream out, PrintStream err, boolean tag) {
        this.out = out;
        this.err = err;
        this.tag = tag;
        this.uncaught = new AtomicReferenceArray<>(ranks);
        this.lineStart = new boolean[ranks][2];
        this.partial = new ByteArrayOutputStream[ranks][2];
        this.errLine = new ByteArrayOutputStream[ranks];
        for (int r = 0; r < ranks; r++) {
            lineStart[r][0] = lineStart[r][1] = true;
            partial[r][0] = new ByteArrayOutputStream();
            partial[r][1] = new ByteArrayOutputStream();
            errLine[r] = new ByteArrayOutputStream();
        }
    }

    /** Writes what rank {@code rank} printed: its whole lines now, the rest when its line ends or it waits. */
    public void write(int rank, boolean isErr, byte[] bytes, int len) {
        if (isErr) {
            noteErrors(rank, bytes, len);
        }
        PrintStream to = isErr ? err : out;
        int s = isErr ? 1 : 0;
        synchronized (to) {
            ByteArrayOutputStream held = partial[rank][s];
            int last = len - 1;
            while (last >= 0 && bytes[last] != '\n') {
                last--;
            }
            if (last >= 0) {
                emit(to, rank, s, held.toByteArray(), held.size());
                held.reset();
                emit(to, rank, s, bytes, last + 1);
            }
            boolean wasEmpty = held.size() == 0;
            held.write(bytes, last + 1, len - last - 1);
            if (wasEmpty && held.size() > 0) {
                schedule(() -> flush(rank, s));
            }
            to.flush();
        }
    }

    /** The rank's output stream ended: what it held is shown, and a last line without its end gets one. */
    public void ended(int rank, boolean isErr) {
        int s = isErr ? 1 : 0;
        flush(rank, s);
        PrintStream to = isErr ? err : out;
        synchronized (to) {
            if (tag && !lineStart[rank][s]) {
                to.println();
                lineStart[rank][s] = true;
            }
        }
    }

    private void flush(int rank, int s) {
        PrintStream to = s == 1 ? err : out;
        synchronized (to) {
            ByteArrayOutputStream held = partial[rank][s];
            if (held.size() > 0) {
                emit(to, rank, s, held.toByteArray(), held.size());
                held.reset();
                to.flush();
            }
        }
    }

    /** Writes {@code len} bytes, the tag before each line's first. Called holding {@code to}'s lock. */
    private void emit(PrintStream to, int rank, int s, byte[] bytes, int len) {
        if (!tag) {
            to.write(bytes, 0, len);
            return;
        }
        byte[] prefix = ("[" + rank + "] ").getBytes(StandardCharsets.US_ASCII);
        boolean[] at = lineStart[rank];
        int from = 0;
        for (int i = 0; i < len; i++) {
            if (at[s]) {
                to.write(prefix, 0, prefix.length);
                at[s] = false;
            }
            if (bytes[i] == '\n') {
                to.write(bytes, from, i + 1 - from);
                from = i + 1;
                at[s] = true;
            }
        }
        to.write(bytes, from, len - from);
    }

    private synchronized void schedule(Runnable flush) {
        if (flusher == null) {
            flusher = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon().name("ferry-run-output-flush").unstarted(r));
        }
        flusher.schedule(flush, PARTIAL_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void noteErrors(int rank, byte[] bytes, int len) {
        ByteArrayOutputStream line = errLine[rank];
        synchronized (line) {
            for (int i = 0; i < len; i++) {
                if (bytes[i] == '\n') {
                    String text = line.toString(StandardCharsets.UTF_8);
                    if (text.startsWith(UNCAUGHT)) {
                        uncaught.compareAndSet(rank, null, text.substring("Exception in ".length()));
                    }
                    line.reset();
                } else if (line.size() < LINE_KEPT) {
                    line.write(bytes[i]);
                }
            }
        }
    }

    /** What the rank's JVM reported of an uncaught exception ("thread ... Exception: ..."), or null. */
    public String uncaught(int rank) {
        return uncaught.get(rank);
    }
}
