package dev.ferry.core.agent;

import dev.ferry.launch.pmi.NodeId;
import dev.ferry.launch.run.NodeService;
import dev.ferry.launch.run.ThreadDumps;
import dev.ferry.spi.Settings;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Agent mode's part in a launcher: {@code ferry run}, or a multi-host proxy, starts the agent of
 * each node its ranks play (one, or one per {@code FERRY_RANKS_PER_NODE} group) before it starts
 * them, so that the agent comes up beside the ranks' JVMs rather than after the first of them, and
 * ends it after them. The ranks find it at the socket they would have started one at; an agent
 * already there (a daemon, {@code ferry agent}) is used as it is. Nothing happens with agent mode
 * off.
 *
 * <pre>{@code
 * // found by the launcher through ServiceLoader (META-INF/services/dev.ferry.launch.run.NodeService)
 * NodeService.Running agents = new AgentNodeService().start(job);
 * }</pre>
 */
public final class AgentNodeService implements NodeService {
    /** How long the agent has to listen (as long as a rank gives it), and after the ranks' end to end by itself. */
    private static final Duration LISTEN_BOUND = Duration.ofSeconds(30);
    private static final Duration END_BOUND = Duration.ofSeconds(2);
    /** How long an agent asked for its threads has to write them to its log. */
    private static final Duration DUMP_BOUND = Duration.ofSeconds(2);
    /** How long an agent no rank ever reached outlives the launcher's end: the launcher ends it sooner. */
    private static final Duration IDLE_EXIT = Duration.ofSeconds(10);

    @Override
    public Running start(NodeJob job) throws IOException {
        Settings settings = settings(job.env());
        if (!on(settings) || job.ranks().isEmpty()) {
            return null;
        }
        Links links = Links.of(settings);
        String nodeId = job.env().get(dev.ferry.launch.LaunchSettings.NODE_ID.name());
        String perNode = job.env().get(dev.ferry.launch.LaunchSettings.RANKS_PER_NODE.name());
        Set<String> nodes = new LinkedHashSet<>();
        for (int r : job.ranks()) {
            nodes.add(NodeId.of(r, nodeId, perNode));
        }
        // the ranks' own class path when they give one (with their cache: the agent runs on Ferry's
        // classes, which theirs hold); else this launcher's, which found this class
        boolean own = !job.classPath().isBlank();
        List<String> jvm = own ? job.jvm() : List.of(ProcessHandle.current().info().command().orElse("java"));
        String classPath = own ? job.classPath() : System.getProperty("java.class.path");
        List<AgentLauncher.Started> started = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        try {
            for (String node : nodes) {
                Path socket = AgentSettings.socket(settings, job.jobKey(), node);
                AgentLauncher.Started s = AgentLauncher.startForJob(socket, job.jobKey(), Path.of("/dev/shm"), LISTEN_BOUND, IDLE_EXIT, links.idleClose(), links.max(),
                        jvm, classPath);
                if (s != null) {
                    started.add(s);
                    if (links.report()) {
                        lines.add("agent process " + s.pid() + " started for node " + node);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            started.forEach(s -> s.end(Duration.ZERO));
            throw new IOException("cannot start the node's agent: " + e.getMessage(), e);
        }
        return new Running() {
            @Override
            public List<String> report() {
                return lines;
            }

            @Override
            public List<String> dumpThreads() {
                List<String> dump = new ArrayList<>();
                for (AgentLauncher.Started s : started) {
                    for (String line : ThreadDumps.requestInto(s.pid(), s.log(), DUMP_BOUND)) {
                        dump.add("agent " + s.pid() + ": " + line);
                    }
                }
                return dump;
            }

            @Override
            public void close() {
                started.forEach(s -> s.end(END_BOUND));
            }
        };
    }

    /** Whether the ranks' settings turn agent mode on; a value they would refuse too is an error (the job does not start). */
    static boolean on(Settings settings) throws IOException {
        try {
            return AgentSettings.on(settings);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** What an agent started for the ranks takes of their settings: its links' idle close and cap, and whether to report. */
    record Links(Duration idleClose, int max, boolean report) {
        static Links of(Settings settings) throws IOException {
            try { // a value the ranks would refuse too
                return new Links(Duration.ofNanos(dev.ferry.core.config.EngineSettings.idleCloseNanos(settings)),
                        dev.ferry.core.config.EngineSettings.maxConnections(settings), dev.ferry.core.config.EngineSettings.stats(settings));
            } catch (IllegalArgumentException e) {
                throw new IOException(e.getMessage(), e);
            }
        }
    }

    /** The ranks' settings: the FERRY_ variables of their environment, nothing of this process's. */
    static Settings settings(Map<String, String> env) {
        Settings s = Settings.defaults();
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().matches("FERRY_[A-Z0-9_]+")) {
                s = s.with(e.getKey(), e.getValue());
            }
        }
        return s;
    }
}
