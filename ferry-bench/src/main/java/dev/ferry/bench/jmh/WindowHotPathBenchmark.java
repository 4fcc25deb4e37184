package dev.ferry.bench.jmh;

import dev.ferry.Datatype;
import dev.ferry.Ferry;
import dev.ferry.FerryConfig;
import dev.ferry.Op;
import dev.ferry.Window;
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

import java.util.concurrent.TimeUnit;

/**
 * The windows' hot path in one process (a one-rank job: the rank locks its own window and
 * reaches it through the self driver, through the same API, library and engine code as a peer
 * would): an 8-byte put, get, accumulate and fetch-and-op, each with its flush. Against
 * {@code PortalsHotPath} this is the window layer's cost per operation. Run with {@code -prof gc}:
 * {@code gc.alloc.rate.norm} is what one operation allocates.
 *
 * <pre>
 *   bin/ferry bench jmh WindowHotPath -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class WindowHotPathBenchmark {
    private Ferry ferry;
    private Window win;
    private final long[] one = {1};
    private final long[] got = new long[1];

    @Setup(Level.Trial)
    public void setUp() {
        ferry = Ferry.init(new FerryConfig().set("FERRY_DRIVERS", "self"));
        win = Window.allocate(ferry.world(), 64, 8);
        win.lock(Window.LockType.SHARED, 0);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        win.unlock(0);
        win.free();
        ferry.close();
    }

    @Benchmark
    public long putFlush() {
        win.put(one, 0, 1, Datatype.LONG, 0, 0);
        win.flush(0);
        return one[0];
    }

    @Benchmark
    public long getFlush() {
        win.get(got, 0, 1, Datatype.LONG, 0, 1);
        win.flush(0);
        return got[0];
    }

    @Benchmark
    public long accumulateFlush() {
        win.accumulate(one, 0, 1, Datatype.LONG, 0, 2, Op.SUM);
        win.flush(0);
        return one[0];
    }

    @Benchmark
    public long fetchAndOpFlush() {
        win.fetchAndOp(one, 0, got, 0, Datatype.LONG, 0, 3, Op.SUM);
        win.flush(0);
        return got[0];
    }
}
