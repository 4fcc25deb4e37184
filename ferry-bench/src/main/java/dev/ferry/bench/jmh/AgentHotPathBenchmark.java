package dev.ferry.bench.jmh;

import dev.ferry.core.agent.Agent;
import dev.ferry.core.agent.AgentClient;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A call forwarded to the node agent through its command ring (seed 003's forward and
 * lib_dispatch), against the same call made in-process: {@code forwarded} is a PING from this
 * thread through the ring to the agent's loop on another thread and back; {@code inProcess} is the
 * work the agent does for it, called directly. The difference is what forwarding costs a call.
 *
 * <pre>
 *   bin/ferry bench jmh AgentHotPath -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class AgentHotPathBenchmark {
    private Path dir;
    private Agent agent;
    private Thread loop;
    private AgentClient client;
    private long value;
    private final long[] beat = {0};

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        dir = Files.createTempDirectory("ferry-agent-bench");
        Agent.Config c = new Agent.Config(dir.resolve("agent.sock"), "bench").withChannels(dir);
        agent = Agent.start(c);
        loop = new Thread(agent::run, "agent");
        loop.start();
        client = AgentClient.connect(c.socket(), "bench", Duration.ofSeconds(10));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        client.close();
        agent.close();
        loop.join(10_000);
        try (var files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(dir);
    }

    /** A PING through the ring: the value goes to the agent and comes back. */
    @Benchmark
    public long forwarded() {
        return client.ping(value++);
    }

    /** What the agent does for a PING, called here: the value, and the beat read beside it. */
    @Benchmark
    public long inProcess() {
        beat[0]++;
        return value++ + (beat[0] & 0);
    }
}
