package dev.ferry.cli;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
