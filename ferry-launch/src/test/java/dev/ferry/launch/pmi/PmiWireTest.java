package dev.ferry.launch.pmi;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PmiWireTest {
    @Test
    void v1RoundTrips() {
        String line = PmiWire.v1("put", "kvsname", "k", "key", "a.b", "value", "+x/y");
        assertEquals("cmd=put kvsname=k key=a.b value=+x/y\n", line);
        PmiWire.Message m = PmiWire.parseV1(line.strip());
        assertEquals("put", m.cmd());
        assertEquals(Map.of("kvsname", "k", "key", "a.b", "value", "+x/y"), m.attrs());
        assertThrows(PmiException.class, () -> PmiWire.v1("put", "value", "has space"));
        assertThrows(PmiException.class, () -> PmiWire.parseV1("put key=x"));
    }

    @Test
    void v2HasItsLengthFieldAndSemicolons() {
        byte[] b = PmiWire.v2("kvs-fence");
        assertEquals("    14cmd=kvs-fence;", new String(b, StandardCharsets.US_ASCII));
        assertEquals(14, PmiWire.parseV2Length("    14".getBytes(StandardCharsets.US_ASCII)));
        PmiWire.Message m = PmiWire.parseV2("cmd=kvs-get-response;found=TRUE;value=a;;b;rc=0;");
        assertEquals("a;b", m.get("value"), "';;' is an escaped ';'");
        assertEquals(0, m.rc());
        assertThrows(PmiException.class, () -> PmiWire.parseV2Length("abcdef".getBytes(StandardCharsets.US_ASCII)));
        assertThrows(PmiException.class, () -> PmiWire.parseV2Length("999999".getBytes(StandardCharsets.US_ASCII)));
        assertThrows(PmiException.class, () -> PmiWire.v2("kvs-put", "value", "a;b"));
    }

    @Test
    void longValuesAreSplitAndJoined() {
        SingletonBootstrap kvs = new SingletonBootstrap();
        Bootstrap small = new Bootstrap() { // a launcher whose values hold 10 characters
            public int rank() { return 0; }
            public int size() { return 1; }
            public String jobId() { return "j"; }
            public String protocol() { return "test"; }
            public int maxValueLength() { return 10; }
            public int maxKeyLength() { return 64; }
            public boolean wideUrlSupport() { return true; }
            public void put(String key, String value) {
                if (value.length() > 10) {
                    throw new PmiException("value over 10");
                }
                kvs.put(key, value);
            }
            public void fence() { }
            public String get(String key) { return kvs.get(key); }
            public void abort(int exitCode, String message) { }
            public void close() { }
        };
        String url = "x".repeat(95);
        KeyValues.put(small, "ferry.url.0.tcp", url);
        assertEquals("11", small.get("ferry.url.0.tcp.n"));
        assertEquals(url, KeyValues.get(small, "ferry.url.0.tcp"));
        KeyValues.put(small, "empty", "");
        assertEquals("", KeyValues.get(small, "empty"));
        assertEquals(null, KeyValues.get(small, "absent"));
    }

    @Test
    void withNoLauncherAJobOfOne() {
        Bootstrap b = Bootstraps.from(Map.of());
        assertEquals("singleton", b.protocol());
        assertEquals(1, b.size());
        assertEquals(0, b.rank());
        assertThrows(PmiException.class, () -> Bootstraps.from(Map.of("PMI_PORT", "127.0.0.1:1", "FERRY_PMI", "3")));
        assertThrows(PmiException.class, () -> Bootstraps.from(Map.of("PMI_FD", "x")));
    }

    /** A launcher's variables without a PMI Ferry speaks: one clear line, never a silent job of one. */
    @Test
    void aLauncherWithoutAPmiFerrySpeaksIsAnErrorNotAJobOfOne() {
        Map<Map<String, String>, String> cases = Map.of(
                Map.of("OMPI_COMM_WORLD_SIZE", "2", "OMPI_COMM_WORLD_RANK", "1"), "Open MPI's launcher as one of 2",
                Map.of("SLURM_STEP_ID", "0", "SLURM_STEP_NUM_TASKS", "4", "SLURM_PROCID", "3"), "srun as one of 4 tasks",
                Map.of("PMI_SIZE", "3", "PMI_RANK", "1"), "PMI_SIZE=3");
        cases.forEach((env, says) -> {
            PmiException e = assertThrows(PmiException.class, () -> Bootstraps.from(env), env.toString());
            assertTrue(e.getMessage().contains(says), e.getMessage());
            assertTrue(e.getMessage().contains("will not run as a job of one"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        });
        // one task of srun, or a batch script's own shell: a job of one is right
        assertEquals(1, Bootstraps.from(Map.of("SLURM_STEP_ID", "0", "SLURM_STEP_NUM_TASKS", "1")).size());
        assertEquals(1, Bootstraps.from(Map.of("SLURM_JOB_ID", "7", "SLURM_NTASKS", "4")).size());
    }

    @Test
    void nodeIdentityHasHostAndBootIdOrTheOverride() {
        String id = NodeId.current();
        assertEquals(true, id.startsWith(NodeId.hostName() + "/") || System.getenv(dev.ferry.launch.LaunchSettings.NODE_ID.name()) != null, id);
        assertEquals("rack3-n7", NodeId.of(5, "rack3-n7", null));
        assertEquals("rack3-n7#2", NodeId.of(5, "rack3-n7", "2"));
        assertEquals(NodeId.of(0, null, null) + "#1", NodeId.of(3, null, "2"));
        assertThrows(IllegalArgumentException.class, () -> NodeId.of(0, null, "0"));
    }
}
