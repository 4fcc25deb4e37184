package dev.ferry.bench.jmh;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.Ferry;
import dev.ferry.Request;
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
import java.util.concurrent.TimeUnit;

/**
 * The API's point-to-point path in one rank (a job of one, through the self driver): a send to
 * itself and the receive that matches it, with {@code backlog} other receives posted (other
 * tags, never matched). Against {@code EngineHotPath.sendAndReceive} this is the API's cost per
 * message; between backlogs, what 10 000 posted receives cost a match (the goal: at most 1.2x).
 *
 * <pre>
 *   bin/ferry bench jmh ApiHotPath -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ApiHotPathBenchmark {
    @Param({"0", "10000"})
    public int backlog;

    private Ferry ferry;
    private Comm self;
    private MemorySegment out;
    private MemorySegment in;
    private byte[] outArray;
    private byte[] inArray;
    private Request[] pending;

    @Setup(Level.Trial)
    public void setUp() {
        ferry = Ferry.init(new dev.ferry.FerryConfig().set("FERRY_DRIVERS", "self"));
        self = ferry.self();
        out = Arena.ofAuto().allocate(8);
        in = Arena.ofAuto().allocate(8);
        outArray = new byte[8];
        inArray = new byte[8];
        pending = new Request[backlog];
        for (int i = 0; i < backlog; i++) {
            pending[i] = self.irecv(new byte[8], 0, 8, Datatype.BYTE, 0, 1000 + i);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        for (Request r : pending) {
            r.cancel();
        }
        ferry.close();
    }

    /** An 8-byte message to itself from and into memory segments: a blocking send (it leaves at once), then the receive that matches it. */
    @Benchmark
    public Object segments() {
        self.send(out, 0, 8, Datatype.BYTE, 0, 7);
        return self.recv(in, 0, 8, Datatype.BYTE, 0, 7);
    }

    /** The same from and into byte arrays. */
    @Benchmark
    public Object arrays() {
        self.send(outArray, 0, 8, Datatype.BYTE, 0, 7);
        return self.recv(inArray, 0, 8, Datatype.BYTE, 0, 7);
    }

    /** A message that arrives before its receive (the unexpected path): a probe takes it in, then the receive. */
    @Benchmark
    public Object unexpected() {
        self.send(out, 0, 8, Datatype.BYTE, 0, 7);
        while (self.iprobe(0, 7) == null) {
            Thread.onSpinWait();
        }
        return self.recv(in, 0, 8, Datatype.BYTE, 0, 7);
    }

    /** isend and irecv, each a request of its own, completed by waitAll. */
    @Benchmark
    public Object nonBlocking() {
        Request r = self.irecv(in, 0, 8, Datatype.BYTE, 0, 7);
        Request s = self.isend(out, 0, 8, Datatype.BYTE, 0, 7);
        return Request.waitAll(r, s);
    }
}
