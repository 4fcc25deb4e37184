package mpi;

import dev.ferry.launch.run.CapturedJob;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Programs of both Java MPI families, compiled against the {@code mpi} package alone, run
 * unmodified as real jobs of 1 to 8 JVMs under Ferry's launcher; with ranks per node set, pairs on
 * one "node" talk over shared memory and the others over tcp. Each program checks its own result
 * (against a serial computation or an exact count) and prints "ok" or "WRONG".
 */
class ProgramsJobTest {
    private static final Duration BOUND = Duration.ofSeconds(180);

    private static CapturedJob.Result run(int ranks, int perNode, String main, String... args) throws Exception {
        Map<String, String> env = perNode > 0 ? Map.of("FERRY_RANKS_PER_NODE", String.valueOf(perNode)) : Map.of();
        return CapturedJob.run(ranks, env, BOUND, Programs.classPath(), main, args);
    }

    @ParameterizedTest(name = "{0} on {1} ranks, {2} per node")
    @CsvSource({
            "openmpi.PingPong, 2, 0, 500", "openmpi.PingPong, 4, 2, 500",
            "openmpi.Ring, 1, 0, 5", "openmpi.Ring, 8, 4, 20",
            "openmpi.Pi, 1, 0, 100000", "openmpi.Pi, 3, 2, 1000000",
            "openmpi.Stencil, 4, 2, -", "openmpi.Stencil, 6, 3, -",
            "openmpi.MatMul, 1, 0, -", "openmpi.MatMul, 5, 2, -",
            "openmpi.Counter, 4, 2, 200", "openmpi.Counter, 1, 0, 10",
            "mpijava.PingPong, 2, 1, 500", "mpijava.PingPong, 6, 3, 200",
            "mpijava.Ring, 1, 0, -", "mpijava.Ring, 7, 4, -",
            "mpijava.Pi, 4, 2, 1000000",
            "mpijava.Stencil, 4, 2, -", "mpijava.Stencil, 8, 4, -",
            "mpijava.MatMul, 3, 2, -", "mpijava.MatMul, 1, 0, -",
            "mpijava.SerializedObjects, 1, 0, -", "mpijava.SerializedObjects, 5, 2, -",
            "mpijava.BufferedSends, 2, 1, -", "mpijava.BufferedSends, 5, 2, -",
            "mpijava.MasterWorkers, 2, 0, -", "mpijava.MasterWorkers, 8, 3, -",
            "openmpi.CoupledHalves, 2, 1, -", "openmpi.CoupledHalves, 7, 3, -",
            "mpijava.Structs, 2, 1, -", "mpijava.Structs, 5, 2, -",
            "mpijava.DerivedObjects, 2, 1, -", "mpijava.DerivedObjects, 3, 2, -",
            "mpijava.LargeObject, 2, 1, -", "openmpi.LargeCounts, 2, 1, -"})
    void aProgramRunsUnmodifiedAndChecksItsResult(String main, int ranks, int perNode, String arg) throws Exception {
        CapturedJob.Result r = arg.equals("-") ? run(ranks, perNode, main) : run(ranks, perNode, main, arg);
        assertEquals(0, r.exit(), r.toString());
        assertFalse(r.out().contains("WRONG"), r.toString());
        long oks = r.okLines().size();
        long expected = switch (main) {
            case "openmpi.PingPong", "mpijava.PingPong" -> ranks / 2;
            case "mpijava.Ring" -> ranks;
            case "mpijava.LargeObject" -> 3;
            default -> 1;
        };
        assertEquals(expected, oks, r.toString());
    }

    /** Every call of the package, checked for its exact result, on one rank, on three (shm and tcp), on four (two per node). */
    @ParameterizedTest(name = "{0} ranks, {1} per node")
    @CsvSource({"1, 0", "3, 2", "4, 2"})
    void everyCallGivesItsExactResult(int ranks, int perNode) throws Exception {
        CapturedJob.Result r = run(ranks, perNode, "checks.ApiChecks");
        assertEquals(0, r.exit(), r.toString());
        assertEquals(List.of("ok point-to-point", "ok requests", "ok booleans, objects and structs", "ok collectives (Open MPI names)",
                "ok collectives (mpiJava names)", "ok operations", "ok groups and communicators", "ok topologies", "ok packing", "ok windows",
                "ok large counts", "ok errors"), r.okLines(), r.toString());
    }

    /**
     * A program that loses a rank midway (it halts, as a killed process) revokes, agrees and
     * shrinks with ULFM's calls, and finishes on the survivors with the serial answer; on shm and
     * tcp at once. Without a death it takes one round.
     */
    @ParameterizedTest(name = "{0} ranks, {1} per node, rank {2} dies after {3} chunks")
    @CsvSource({"4, 2, 2, 5", "5, 2, 0, 3", "3, 0, -1, 0"})
    void aProgramSurvivesALostRank(int ranks, int perNode, int victim, int chunks) throws Exception {
        CapturedJob.Result r = run(ranks, perNode, "openmpi.ResilientPi", String.valueOf(victim), String.valueOf(chunks));
        assertEquals(victim < 0 ? 0 : 3, r.exit(), "the dead rank's status: " + r);
        assertEquals(List.of(victim < 0 ? "ok pi is 3.141592653590 after 1 round, on " + ranks + " survivors of " + ranks + " ranks"
                : "ok pi is 3.141592653590 after 2 rounds, on " + (ranks - 1) + " survivors of " + ranks + " ranks"), r.okLines(), r.toString());
    }

    /** ERRORS_RETURN: an exception with the class and the argument; ERRORS_ARE_FATAL: the job ends, non-zero, saying why. */
    @Test
    void errorsAreReturnedOrFatalAsTheHandlerSays() throws Exception {
        CapturedJob.Result r = run(2, 1, "openmpi.Errors");
        assertEquals(0, r.exit(), r.toString());
        assertEquals(2, r.okLines().size(), r.toString());
        assertTrue(r.out().contains("error class " + MPI.ERR_RANK + ": dest: 7"), r.toString());

        r = run(2, 1, "openmpi.Errors", "fatal");
        assertNotEquals(0, r.exit(), r.toString());
        assertFalse(r.out().contains("WRONG"), r.toString());
        assertTrue(r.err().contains("ERRORS_ARE_FATAL") && r.err().contains("ERR_RANK"), r.toString());
    }
}
