package dev.ferry.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same program under MPICH's Hydra ({@code mpiexec.hydra}, Debian package mpich, which
 * .ci/run installs): ranks find Hydra's PMI descriptor, negotiate PMI-2 (or use PMI-1 when told),
 * exchange and say hello.
 */
class HydraTest {
    private static final Path HYDRA = Path.of("/usr/bin/mpiexec.hydra");

    @BeforeAll
    static void needHydra() {
        Assumptions.assumeTrue(Files.isExecutable(HYDRA), "mpiexec.hydra is not installed (apt-get install mpich; .ci/run does it)");
    }

    @ParameterizedTest(name = "{0} ranks, FERRY_PMI={1}")
    @CsvSource({"4, auto, pmi-2", "2, 1, pmi-1", "2, 2, pmi-2"})
    void ranksUnderHydraSayHello(int n, String pmi, String expected) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(HYDRA.toString(), "-n", String.valueOf(n),
                dev.ferry.launch.ChildJvm.javaExecutable().toString(), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "exec", "--example", "hello"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("FERRY_TCP_INTERFACES", "lo");
        pb.environment().put("FERRY_PMI", pmi);
        pb.environment().put("PMI_DEBUG", "0");
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("mpiexec.hydra did not end within 120 s");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        for (int r = 0; r < n; r++) {
            assertTrue(out.contains("hello from rank " + r + " of " + n + " on node "), out);
        }
        // which protocol the ranks spoke: the wireup example says it
        List<String> wire = new ArrayList<>(cmd);
        wire.set(wire.size() - 1, "wireup");
        ProcessBuilder pw = new ProcessBuilder(wire).redirectErrorStream(true);
        pw.environment().putAll(pb.environment());
        Process w = pw.start();
        assertTrue(w.waitFor(120, TimeUnit.SECONDS));
        String wout = new String(w.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(wout.contains("wired up " + n + " ranks on 1 node(s) over " + expected), wout);
    }
}
