package dev.ferry.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * When a warm-up may end: after its least duration, and once this JVM's JIT has compiled nothing
 * for {@link BenchOptions#JIT_QUIET_NANOS}, but never later than {@link BenchOptions#WARMUP_MAX_NANOS}.
 * A fixed duration alone was not enough on two cores: with both ranks spinning, the compiler
 * thread competes with them, and the first size measured read 7% slower than the same size
 * measured again right after (engine-bandwidth, 64 KiB, 1.41 against 1.32 us per message).
 *
 * <pre>{@code
 * JitQuiet quiet = new JitQuiet(o.warmupNanos());
 * while (!quiet.settled()) {
 *     step.run();
 * }
 * }</pre>
 */
final class JitQuiet {
    /** The compilation time is read this often at most: reading it is not free. */
    private static final long LOOK_NANOS = 10_000_000L;
    private static final CompilationMXBean JIT = jit();

    private final long start = System.nanoTime();
    private final long least;
    private long lastLook = start;
    private long lastCompileMillis = compileMillis();
    private long quietSince = start;

    /** @param leastNanos the least duration; 0 means no warm-up at all (settled at once) */
    JitQuiet(long leastNanos) {
        this.least = leastNanos;
    }

    /** True when the warm-up may end. */
    boolean settled() {
        if (least == 0) {
            return true;
        }
        long now = System.nanoTime();
        if (now - start >= BenchOptions.WARMUP_MAX_NANOS) {
            return true;
        }
        if (now - lastLook >= LOOK_NANOS) {
            lastLook = now;
            long c = compileMillis();
            if (c != lastCompileMillis) {
                lastCompileMillis = c;
                quietSince = now;
            }
        }
        return now - start >= least && now - quietSince >= BenchOptions.JIT_QUIET_NANOS;
    }

    private static CompilationMXBean jit() {
        CompilationMXBean b = ManagementFactory.getCompilationMXBean();
        return b != null && b.isCompilationTimeMonitoringSupported() ? b : null;
    }

    /** Total JIT time so far; constant (so always quiet) where the JVM does not report it. */
    private static long compileMillis() {
        return JIT == null ? 0 : JIT.getTotalCompilationTime();
    }
}
