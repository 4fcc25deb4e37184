package dev.ferry.cli;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

class JobCpuTest {
    @Test
    void childrenThisProcessWaitedForAreCounted() throws Exception {
        double before = JobCpu.childrenSeconds();
        assertTrue(before >= 0, "read from /proc/self/stat");
        // a child busy for 300 ms (its own children too, which it waits for)
        Process busy = new ProcessBuilder("sh", "-c", "end=$(($(date +%s%N) + 300000000)); while [ $(date +%s%N) -lt $end ]; do :; done").start();
        assertTrue(busy.waitFor(60, TimeUnit.SECONDS));
        double after = JobCpu.childrenSeconds();
        assertTrue(after - before >= 0.05, "children's CPU grew from " + before + " to " + after);
    }
}
