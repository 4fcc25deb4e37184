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
 * one "node" talk over shared memory and the others over tcp, or (FERRY_AGENT=on, once for every
 * program that spans nodes) through the node agents. Each program checks its own result (against
 * a serial computation or an exact count) and prints "ok" or "WRONG".
 */
class ProgramsJobTest {
    private static final Duration BOUND = Duration.ofSeconds(180);

    private static CapturedJob.Result run(int ranks, int perNode, String main, String... args) throws Exception {
        return runAgent(ranks, perNode, "off", main, args);
    }

    /** With {@code agent} "on", traffic between nodes goes through the node agents. */
    private static CapturedJob.Result runAgent(int ranks, int perNode, String agent, String main, String... args) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(Map.of("FERRY_AGENT", agent));
        if (perNode > 0) {
            env.put("FERRY_RANKS_PER_NODE", String.valueOf(perNode));
        }
        return CapturedJob.run(ranks, env, BOUND, Programs.classPath(), main, args);
    }

    @ParameterizedTest(name = "{0} on {1} ranks, {2} per node, FERRY_AGENT={4}")
    @CsvSource({
            "openmpi.PingPong, 2, 0, 500, off", "openmpi.PingPong, 4, 2, 500, off",
            "openmpi.Ring, 1, 0, 5, off", "openmpi.Ring, 8, 4, 20, off",
            "openmpi.Pi, 1, 0, 100000, off", "openmpi.Pi, 3, 2, 1000000, off",
            "openmpi.Stencil, 4, 2, -, off", "openmpi.Stencil, 6, 3, -, off",
            "openmpi.MatMul, 1, 0, -, off", "openmpi.MatMul, 5, 2, -, off",
            "openmpi.Counter, 4, 2, 200, off", "openmpi.Counter, 1, 0, 10, off",
            "mpijava.PingPong, 2, 1, 500, off", "mpijava.PingPong, 6, 3, 200, off",
            "mpijava.Ring, 1, 0, -, off", "mpijava.Ring, 7, 4, -, off",
            "mpijava.Pi, 4, 2, 1000000, off", "mpijava.Stencil, 4, 2, -, off",
            "mpijava.Stencil, 8, 4, -, off", "mpijava.MatMul, 3, 2, -, off",
            "mpijava.MatMul, 1, 0, -, off", "mpijava.SerializedObjects, 1, 0, -, off",
            "mpijava.SerializedObjects, 5, 2, -, off", "mpijava.BufferedSends, 2, 1, -, off",
            "mpijava.BufferedSends, 5, 2, -, off", "mpijava.MasterWorkers, 2, 0, -, off",
            "mpijava.MasterWorkers, 8, 3, -, off", "openmpi.CoupledHalves, 2, 1, -, off",
            "openmpi.CoupledHalves, 7, 3, -, off", "mpijava.Structs, 2, 1, -, off",
            "mpijava.Structs, 5, 2, -, off", "mpijava.DerivedObjects, 2, 1, -, off",
            "mpijava.DerivedObjects, 3, 2, -, off", "mpijava.LargeObject, 2, 1, -, off",
            "openmpi.LargeCounts, 2, 1, -, off", "openmpi.PingPong, 4, 2, 500, on",
            "openmpi.Ring, 8, 4, 20, on", "openmpi.Stencil, 6, 3, -, on",
            "openmpi.MatMul, 5, 2, -, on", "mpijava.SerializedObjects, 5, 2, -, on",
            "mpijava.BufferedSends, 5, 2, -, on", "mpijava.MasterWorkers, 8, 3, -, on",
            "openmpi.CoupledHalves, 7, 3, -, on", "mpijava.Structs, 5, 2, -, on",
            "openmpi.Counter, 4, 2, 200, on", "openmpi.Pi, 3, 2, 1000000, on",
            "mpijava.PingPong, 6, 3, 200, on", "mpijava.Ring, 7, 4, -, on",
            "mpijava.Pi, 4, 2, 1000000, on", "mpijava.Stencil, 8, 4, -, on",
            "mpijava.MatMul, 3, 2, -, on", "mpijava.DerivedObjects, 3, 2, -, on",
            "openmpi.LargeCounts, 2, 1, -, on", "mpijava.LargeObject, 2, 1, -, on"})
    void aProgramRunsUnmodifiedAndChecksItsResult(String main, int ranks, int perNode, String arg, String agent) throws Exception {
        CapturedJob.Result r = arg.equals("-") ? runAgent(ranks, perNode, agent, main) : runAgent(ranks, perNode, agent, main, arg);
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

    /**
     * Every call of the package, checked for its exact result, on one rank, on three (shm and
     * tcp), on four (two per node), directly and through the node agents.
     */
    @ParameterizedTest(name = "{0} ranks, {1} per node, FERRY_AGENT={2}")
    @CsvSource({"1, 0, off", "3, 2, off", "4, 2, off", "4, 2, on"})
    void everyCallGivesItsExactResult(int ranks, int perNode, String agent) throws Exception {
        CapturedJob.Result r = runAgent(ranks, perNode, agent, "checks.ApiChecks");
        assertEquals(0, r.exit(), r.toString());
        assertEquals(List.of("ok point-to-point", "ok requests", "ok booleans, objects and structs", "ok collectives (Open MPI names)",
                "ok collectives (mpiJava names)", "ok operations", "ok groups and communicators", "ok topologies", "ok packing", "ok windows",
                "ok large counts", "ok errors"), r.okLines(), r.toString());
    }

    /**
     * A program that loses a rank midway (it halts, as a killed process) revokes, agrees and
     * shrinks with ULFM's calls, and finishes on the survivors with the serial answer; on shm and
     * tcp at once, or shm and the node agents. Without a death it takes one round.
     */
    @ParameterizedTest(name = "{0} ranks, {1} per node, rank {2} dies after {3} chunks, FERRY_AGENT={4}")
    @CsvSource({"4, 2, 2, 5, off", "5, 2, 0, 3, off", "3, 0, -1, 0, off", "5, 2, 0, 3, on"})
    void aProgramSurvivesALostRank(int ranks, int perNode, int victim, int chunks, String agent) throws Exception {
        CapturedJob.Result r = runAgent(ranks, perNode, agent, "openmpi.ResilientPi", String.valueOf(victim), String.valueOf(chunks));
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
