package dev.ferry.core.engine;

import dev.ferry.launch.run.CapturedJob;

import java.time.Duration;
import java.util.Map;

/** Runs an {@link EngineRanks} program as a real job of JVMs (ferry run's job runner) and collects its output. */
final class Jobs {
    /** See {@link CapturedJob.Result}. */
    record Result(int exit, String out, String err) {
        java.util.List<String> okLines() {
            return new CapturedJob.Result(exit, out, err).okLines();
        }

        @Override
        public String toString() {
            return new CapturedJob.Result(exit, out, err).toString();
        }
    }

    private Jobs() {
    }

    static Result run(int ranks, Map<String, String> env, Duration timeout, String... args) throws Exception {
        CapturedJob.Result r = CapturedJob.run(ranks, env, timeout, EngineRanks.class, args);
        return new Result(r.exit(), r.out(), r.err());
    }

    /** As {@link #run(int, Map, Duration, String...)}, the others killed {@code grace} after a rank failed. */
    static Result run(int ranks, Map<String, String> env, Duration timeout, Duration grace, String... args) throws Exception {
        CapturedJob.Result r = CapturedJob.run(ranks, env, timeout, grace, EngineRanks.class, args);
        return new Result(r.exit(), r.out(), r.err());
    }
}
