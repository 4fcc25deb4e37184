package dev.ferry.launch.run;

import dev.ferry.spi.IdleStrategy;
import dev.ferry.spi.Syscall;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Asks a job's JVMs where they are, as a launcher does when a job times out (Open MPI's
 * {@code --get-stack-traces}): SIGQUIT makes a HotSpot JVM print every thread's stack to its
 * standard output and go on. Only processes that run {@code java} are signalled: to anything else
 * SIGQUIT is a fatal signal.
 *
 * <pre>{@code
 * ThreadDumps.request(rankProcess.toHandle()); // its threads appear in its output
 * }</pre>
 */
public final class ThreadDumps {
    private static final int SIGQUIT = 3;
    /** The line a HotSpot thread dump ends with. */
    private static final String LAST_LINE = "JNI global refs";

    private ThreadDumps() {
    }

    /** Sends SIGQUIT to {@code p} and to every JVM it started, where they run java; how many were asked. */
    public static int request(ProcessHandle p) {
        int asked = signal(p) ? 1 : 0;
        for (ProcessHandle d : p.descendants().toList()) {
            asked += signal(d) ? 1 : 0;
        }
        return asked;
    }

    private static boolean signal(ProcessHandle p) {
        if (!p.isAlive() || !p.info().command().map(c -> c.endsWith("/java")).orElse(false) || !Syscall.available()) {
            return false;
        }
        try (Arena a = Arena.ofConfined()) {
            return Syscall.call(Syscall.errnoCapture(a), Syscall.number(Syscall.Call.KILL), p.pid(), SIGQUIT, 0, 0, 0, 0) == 0;
        }
    }

    /**
     * Sends SIGQUIT to a JVM whose output goes to {@code log} (a node agent) and returns the dump it
     * appends there, once it is whole or {@code bound} has passed (what there is then); empty when
     * it could not be asked.
     */
    public static List<String> requestInto(long pid, Path log, Duration bound) {
        ProcessHandle p = ProcessHandle.of(pid).orElse(null);
        long from;
        try {
            from = Files.size(log);
        } catch (IOException e) {
            return List.of();
        }
        if (p == null || !signal(p)) {
            return List.of();
        }
        String[] dump = {""};
        IdleStrategy.DEFAULT.await(() -> (dump[0] = readFrom(log, from)).contains(LAST_LINE), bound.toNanos());
        return dump[0].lines().toList();
    }

    private static String readFrom(Path log, long from) {
        try (var c = Files.newByteChannel(log)) {
            c.position(from);
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate((int) Math.min(4 << 20, Math.max(0, c.size() - from)));
            while (b.hasRemaining() && c.read(b) > 0) {
                // read it all
            }
            return new String(b.array(), 0, b.position(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
