package dev.ferry.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time a local job took, for {@code ferry run --report-wireup}: the ranks' from this
 * launcher's reaped children ({@code cutime} and {@code cstime} of {@code /proc/self/stat}, in
 * USER_HZ ticks, 100 a second on Linux), the launcher's own from its process handle.
 */
final class JobCpu {
    private static final double TICKS_PER_SECOND = 100.0;

    private JobCpu() {
    }

    /** Prints "ferry run: cpu: ranks S s, launcher S s" on {@code err}; nothing where /proc cannot say. */
    static void report(int ranks, PrintStream err) {
        double children = childrenSeconds();
        double own = ProcessHandle.current().info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(-1.0);
        if (children >= 0 && own >= 0) {
            err.printf(java.util.Locale.ROOT, "ferry run: cpu: %d ranks %.2f s, launcher %.2f s%n", ranks, children, own);
        }
    }

    /** The CPU seconds of the children this process waited for, or -1. */
    static double childrenSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // fields after the command name (which may hold spaces) in parentheses
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // counting from field 3 (state) at index 0: cutime is field 16, cstime 17
            return (Long.parseLong(f[13]) + Long.parseLong(f[14])) / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
