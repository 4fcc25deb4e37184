package dev.ferry.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExecCommandTest {
    @Test
    void theFailureLineNamesTheRankAsTheLauncherNumbersIt() {
        assertEquals("rank 3: ", ExecCommand.rankOf(Map.of("PMI_RANK", "3")));
        assertEquals("rank 2: ", ExecCommand.rankOf(Map.of("PMIX_RANK", "2", "OMPI_COMM_WORLD_RANK", "2")));
        assertEquals("rank 1: ", ExecCommand.rankOf(Map.of("SLURM_PROCID", "1")));
        assertEquals("rank 0: ", ExecCommand.rankOf(Map.of("OMPI_COMM_WORLD_RANK", "0")));
        assertEquals("", ExecCommand.rankOf(Map.of()));
        assertEquals("", ExecCommand.rankOf(Map.of("PMI_RANK", "x")));
    }

    /** Under another launcher every rank finds the bad setting; rank 0 alone says so, in one line, and all stop. */
    @Test
    void aBadSettingIsOneLineFromRankZeroAndEveryRankStops() throws Exception {
        Exec zero = exec(Map.of("FERRY_PROGRESS", "fast", "PMI_RANK", "0"));
        assertEquals(2, zero.exit, zero.output);
        assertEquals(List.of("ferry exec: FERRY_PROGRESS must be caller or thread, not 'fast'"), zero.output.lines().toList());
        Exec one = exec(Map.of("FERRY_PROGRESS", "fast", "PMI_RANK", "1"));
        assertEquals(2, one.exit, one.output);
        assertEquals("", one.output);
    }

    private record Exec(int exit, String output) {
    }

    private static Exec exec(Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "exec", "--example", "hello")
                .redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "ferry exec did not end within 60 s");
        return new Exec(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
