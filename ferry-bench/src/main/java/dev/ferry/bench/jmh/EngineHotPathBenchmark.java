package dev.ferry.bench.jmh;

import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.core.engine.Engine;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.SendRequest;
import dev.ferry.launch.pmi.SingletonBootstrap;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The engine's small-message hot path in one thread: a rank sends a message to itself (through
 * the self driver) and receives it in its handler, straight into its destination. Against
 * {@code SpiHotPath} with {@code -p driver=self} this is the engine's cost per message. Run with
 * {@code -prof gc}: {@code gc.alloc.rate.norm} must be 0 B/op.
 *
 * <pre>
 *   bin/ferry bench jmh EngineHotPath -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class EngineHotPathBenchmark {
    @Param({"8", "4096"})
    public int size;

    private Engine engine;
    private MemorySegment out;
    private MemorySegment in;
    private final SendRequest send = new SendRequest();
    private final RecvRequest recv = new RecvRequest();
    private boolean arrived;

    @Setup(Level.Trial)
    public void setUp() {
        engine = Engine.init(new SingletonBootstrap(), List.of(DriverCatalog.discover().find("self").orElseThrow()), this::onMessage);
        out = Arena.ofAuto().allocate(size);
        in = Arena.ofAuto().allocate(size);
        sendAndReceive(); // opens the gate, so that idleProgress polls it
    }

    private void onMessage(Message m) {
        m.receive(in, recv);
        arrived = true;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        engine.close();
    }

    /**
     * One pass of progress that finds nothing (the gate to itself open, nothing arriving): what a
     * waiting rank pays per look, so about twice what a message waits, on average, to be noticed.
     */
    @Benchmark
    public boolean idleProgress() {
        return engine.progress();
    }

    @Benchmark
    public long sendAndReceive() {
        arrived = false;
        engine.send(send.to(0, 1, out));
        while (!arrived || !send.isDone()) {
            engine.progress();
        }
        return recv.received();
    }
}
