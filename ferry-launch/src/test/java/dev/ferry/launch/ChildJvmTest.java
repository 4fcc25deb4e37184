package dev.ferry.launch;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChildJvmTest {
    /** The child used by these tests: echoes lines upper-cased; "die" exits 3; "mute" stops answering. */
    public static final class Echo {
        public static void main(String[] args) throws Exception {
            System.out.println("noise that is not an answer");
            ChildJvm.answer("ready " + System.getenv("CHILD_TEST_VALUE") + " " + String.join(",", args));
            BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = r.readLine()) != null) {
                switch (line) {
                    case "die" -> System.exit(3);
                    case "mute" -> { }
                    default -> ChildJvm.answer(line.toUpperCase());
                }
            }
        }
    }

    private static final Duration T = Duration.ofSeconds(30);

    @Test
    void talksThroughMarkedLines() {
        try (ChildJvm c = ChildJvm.builder(Echo.class.getName()).args("a", "b").env("CHILD_TEST_VALUE", "v1").start()) {
            assertEquals("ready v1 a,b", c.readAnswer(T));
            assertEquals("HELLO", c.call("hello", T));
            assertTrue(c.isAlive());
        }
    }

    @Test
    void aChildThatExitsIsReportedWithItsStatus() {
        ChildJvm c = ChildJvm.builder(Echo.class.getName()).start();
        c.readAnswer(T);
        c.send("die");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.readAnswer(T));
        assertTrue(e.getMessage().contains("status 3"), e.getMessage());
        assertEquals(3, c.waitFor(T));
    }

    @Test
    void aSilentChildTimesOutAndCanBeKilled() {
        ChildJvm c = ChildJvm.builder(Echo.class.getName()).start();
        c.readAnswer(T);
        c.send("mute");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.readAnswer(Duration.ofMillis(300)));
        assertTrue(e.getMessage().contains("did not answer"), e.getMessage());
        c.kill();
        assertFalse(c.isAlive());
        assertFalse(ProcessHandle.of(c.pid()).map(ProcessHandle::isAlive).orElse(false));
    }
}
