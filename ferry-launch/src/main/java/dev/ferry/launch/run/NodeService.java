package dev.ferry.launch.run;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * A process a launcher starts on a node before that node's ranks, for the job's length: the node
 * agent of agent mode, which lives in a layer above the launcher and so is found through
 * {@link ServiceLoader} ({@code META-INF/services}). {@code ferry run} calls every service for its
 * host, each multi-host proxy for its own; a service that has nothing to do for the job (agent mode
 * off) answers null.
 *
 * <pre>{@code
 * try (NodeService.Running services = NodeService.startAll(job)) {
 *     // start the node's ranks, wait for their ends
 * }
 * }</pre>
 */
public interface NodeService {

    /**
     * What a service is told of the node's share of a job.
     *
     * @param jobId     the job's id
     * @param jobKey    the job's secret, as the ranks get it
     * @param ranks     the global ranks this node's launcher starts
     * @param env       the ranks' whole environment (the launcher's, with the job's settings over it)
     * @param jvm       the ranks' java executable and JVM options before the class path (their
     *                  ahead-of-time cache, say), for a service that runs on their classes
     * @param classPath the ranks' class path, empty when they give none
     */
    record NodeJob(String jobId, String jobKey, List<Integer> ranks, Map<String, String> env, List<String> jvm, String classPath) {
        public NodeJob {
            ranks = List.copyOf(ranks);
            env = Map.copyOf(env);
            jvm = List.copyOf(jvm);
        }
    }

    /** What a service started: ended once the node's ranks have ended. */
    interface Running extends AutoCloseable {
        /**
         * Lines the launcher prints for the user, one per process started ("agent process 4242
         * for node n1"); the service decides from the job's settings whether to say anything
         * (the agent only with FERRY_STATS on).
         */
        List<String> report();

        /**
         * Asks what was started to print its threads, for a job that timed out; returns the lines
         * for the launcher to print (a service whose output goes to a log returns the dump).
         */
        default List<String> dumpThreads() {
            return List.of();
        }

                /** Ends what was started (it may have ended by itself with the job), leaving nothing behind. */
        @Override
        void close();
    }

    /**
     * Starts what this service runs for {@code job} on this node, and returns at once: the ranks
     * may start beside it (a service makes them wait for it where they must). Null when it has
     * nothing to run.
     *
     * @throws IOException when it cannot start; the launcher then ends the job with that message
     */
    Running start(NodeJob job) throws IOException;

    /** Starts every service on the class path for {@code job}; closing the result ends them all, in reverse order. */
    static Running startAll(NodeJob job) throws IOException {
        List<Running> started = new java.util.ArrayList<>();
        try {
            for (NodeService s : ServiceLoader.load(NodeService.class, NodeService.class.getClassLoader())) {
                Running r = s.start(job);
                if (r != null) {
                    started.add(r);
                }
            }
        } catch (IOException | RuntimeException e) {
            started.reversed().forEach(Running::close);
            throw e;
        }
        return new Running() {
            @Override
            public List<String> report() {
                return started.stream().flatMap(r -> r.report().stream()).toList();
            }

            @Override
            public List<String> dumpThreads() {
                return started.stream().flatMap(r -> r.dumpThreads().stream()).toList();
            }

            @Override
            public void close() {
                started.reversed().forEach(Running::close);
            }
        };
    }
}
