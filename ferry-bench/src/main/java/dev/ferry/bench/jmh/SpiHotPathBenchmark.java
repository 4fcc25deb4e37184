package dev.ferry.bench.jmh;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The driver hot path, both ends in one thread: one small packet sent and received per
 * operation, by the buffer-based and the iovec-based paths, and a probe-any. Run with
 * {@code -prof gc}: {@code gc.alloc.rate.norm} must be 0 B/op.
 *
 * <pre>
 *   bin/ferry bench jmh SpiHotPath -prof gc
 *   bin/ferry bench jmh SpiHotPath -p driver=self -p size=8 -prof gc
 *   bin/ferry bench jmh 'SpiHotPathBenchmark.(iovec|sendThen)' -p driver=tcp -prof gc   (tcp has no buffer-based path)
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SpiHotPathBenchmark {
    @Param({"self"})
    public String driver;

    @Param({"8", "4096"})
    public int size;

    private DriverContext a;
    private DriverContext b;
    private DriverInstance ab;
    private DriverInstance ba;
    private final Packet send = new Packet();
    private final Packet recv = new Packet();
    private final InstanceRef ready = new InstanceRef();
    private MemorySegment src;
    private MemorySegment dst;
    private IoVec sendIov;
    private IoVec recvIov;

    @Setup
    public void setUp(BenchmarkParams params) {
        DiscoveredDriver d = DriverCatalog.discover().find(driver).orElseThrow(() -> new IllegalStateException("no driver " + driver));
        if (params.getBenchmark().endsWith("bufferSendAndReceive")
                && !(d.properties().capabilities().supportsBufSend() && d.properties().capabilities().supportsBufRecv())) {
            throw new IllegalStateException("driver " + driver + " has no buffer-based transfers; run the other benchmarks for it");
        }
        a = d.driver().newContext(new Hints(2, 0, true, Map.of()));
        b = d.driver().newContext(new Hints(2, 1, true, Map.of()));
        a.properties();
        b.properties();
        DriverUrl ua = a.init();
        DriverUrl ub = b.init();
        ab = a.newInstance();
        ba = b.newInstance();
        expect(ab.connectAsync(ub));
        expect(ba.connectAsync(ua));
        Status w = ab.connectWait();
        if (w != Status.DONE && w != Status.NOT_IMPLEMENTED) {
            throw new IllegalStateException("connectWait " + w);
        }
        src = Arena.ofAuto().allocate(size, 64);
        dst = Arena.ofAuto().allocate(size, 64);
        sendIov = IoVec.of(src);
        recvIov = IoVec.of(dst);
    }

    @TearDown
    public void tearDown() {
        a.close();
        b.close();
    }

    /** A receive poll that finds nothing: a waiting receiver's cost per look (compare {@code EngineHotPath.idleProgress}). */
    @Benchmark
    public Status idleRecvPoll() {
        recv.reset();
        return ba.recvPoll(recv);
    }

    @Benchmark
    public long bufferSendAndReceive() {
        send.reset();
        expect(ab.sendBufGet(send));
        MemorySegment.copy(src, 0, send.buffer(), 0, size);
        send.length(size);
        expect(ab.sendBufPost(send));
        Status s;
        while ((s = ab.sendPoll(send)) == Status.NOT_YET) {
            Thread.onSpinWait();
        }
        expect(s);
        recv.reset();
        while ((s = ba.recvPoll(recv)) == Status.NOT_YET) {
            Thread.onSpinWait();
        }
        expect(s);
        long n = recv.length();
        MemorySegment.copy(recv.buffer(), 0, dst, 0, n);
        expect(ba.recvBufRelease(recv));
        return n;
    }

    /**
     * The receive is posted first: a packet over the driver's buffer size completes its send only
     * once the receiver takes it (a rendezvous), so waiting for the send first would never end.
     */
    @Benchmark
    public long iovecSendAndPostedReceive() {
        recv.reset().useIov(recvIov);
        expect(ba.recvPost(recv));
        send.reset().useIov(sendIov);
        expect(ab.sendPost(send));
        boolean sent = false;
        boolean received = false;
        long spins = 0;
        while (!sent || !received) {
            Status s;
            if (!sent && (s = ab.sendPoll(send)) != Status.NOT_YET) {
                expect(s);
                sent = true;
            }
            if (!received && (s = ba.recvPoll(recv)) != Status.NOT_YET) {
                expect(s);
                received = true;
            }
            if (!sent || !received) {
                bound(++spins);
            }
        }
        return recv.length();
    }

    /** Fails a wait that spun past any plausible time (a driver that never completes), instead of hanging the run. */
    private static void bound(long spins) {
        if (spins > 2_000_000_000L) {
            throw new IllegalStateException("no completion after " + spins + " polls");
        }
        Thread.onSpinWait();
    }

    @Benchmark
    public long sendThenProbeAny() {
        send.reset().useIov(sendIov);
        expect(ab.sendPost(send));
        Status s;
        while ((s = ab.sendPoll(send)) == Status.NOT_YET) {
            Thread.onSpinWait();
        }
        expect(s);
        while ((s = b.recvProbeAny(ready)) == Status.NOT_YET) {
            Thread.onSpinWait();
        }
        expect(s);
        recv.reset().useIov(recvIov);
        expect(ready.instance.recvPost(recv));
        while ((s = ready.instance.recvPoll(recv)) == Status.NOT_YET) {
            Thread.onSpinWait();
        }
        expect(s);
        return recv.length();
    }

    // Polling loops are written out: a lambda capturing this benchmark would allocate per call.

    private static void expect(Status s) {
        if (s != Status.DONE) {
            throw new IllegalStateException("driver answered " + s);
        }
    }
}
