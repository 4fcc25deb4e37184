package dev.ferry.bench;

import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The UCX floor reference: a real UCP tagged ping-pong between this JVM and a child (CI installs libucx0). */
class RefUcpTest {
    @Test
    void aTaggedPingPongWithAChildGivesOneLatencyLinePerSize() throws Throwable {
        BenchOptions o = BenchOptions.parse("driver-latency", List.of("--sizes", "0,8,100000", "--iterations", "200", "--warmup", "0"));
        List<Result> lines = new ArrayList<>();
        long jvmHandler = segvHandler();
        RefUcp.latency(o, o.sizes(), new Progress(new PrintStream(OutputStream.nullOutputStream()), false), lines::add);
        // libucp is loaded in this JVM now: SIGSEGV must still reach the JVM (its implicit null checks), not UCX
        assertEquals(jvmHandler, segvHandler(), "UCX took SIGSEGV's handler");
        assertEquals(3, lines.size(), lines.toString());
        long[] sizes = {0, 8, 100000}; // 100000: over UCX's eager limit, a rendezvous each way
        for (int i = 0; i < 3; i++) {
            Result r = lines.get(i);
            assertEquals(RefUcp.NAME, r.driver());
            assertEquals(BenchOptions.LATENCY, r.benchmark());
            assertEquals(sizes[i], r.size());
            // whole batches of round trips are timed (RoundTrips): at most a batch (200 / 20 + 1) short of 200
            assertTrue(r.iterations() > 200 - 11 && r.iterations() <= 200, r.toString());
            assertTrue(r.medianUs() > 0 && r.p99Us() >= r.medianUs(), r.toString());
        }
    }

    /** The address of this process's SIGSEGV handler (sigaction's first field, sa_handler/sa_sigaction). */
    private static long segvHandler() throws Throwable {
        java.lang.foreign.Linker l = java.lang.foreign.Linker.nativeLinker();
        java.lang.invoke.MethodHandle sigaction = l.downcallHandle(l.defaultLookup().find("sigaction").orElseThrow(),
                java.lang.foreign.FunctionDescriptor.of(java.lang.foreign.ValueLayout.JAVA_INT, java.lang.foreign.ValueLayout.JAVA_INT,
                        java.lang.foreign.ValueLayout.ADDRESS, java.lang.foreign.ValueLayout.ADDRESS));
        try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment old = a.allocate(256, 8); // struct sigaction is 152 bytes on x86-64 glibc
            int rc = (int) sigaction.invokeExact(11, java.lang.foreign.MemorySegment.NULL, old);
            assertEquals(0, rc, "sigaction");
            return old.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0);
        }
    }
}
