package dev.ferry.bench.jmh;

import dev.ferry.portals.CtHandle;
import dev.ferry.portals.MdHandle;
import dev.ferry.portals.Md;
import dev.ferry.portals.Me;
import dev.ferry.portals.NiHandle;
import dev.ferry.portals.ProcessId;
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

import static dev.ferry.portals.Portals.*;

/**
 * The library's hot path in one process (a one-rank job: the rank reaches itself through the
 * self driver, through the same engine and library code as a peer would): an 8-byte put with its
 * ack, a get with its reply, a fetch-add, each waited for on a counting event, and the four kinds
 * mixed. Against
 * {@code EngineHotPath} this is the library's cost per operation. Run with {@code -prof gc}:
 * {@code gc.alloc.rate.norm} is what one operation allocates. {@code entries} match entries on
 * other bits are appended before the one the operations match: the lists match through hash
 * bins, so they cost nothing (a walk of the list would pass over them all).
 *
 * <pre>
 *   bin/ferry bench jmh PortalsHotPath -prof gc
 *   bin/ferry bench jmh PortalsHotPath.putWithAck -p entries=0,10000
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PortalsHotPathBenchmark {
    private static final ProcessId SELF = ProcessId.ofRank(0);
    private static final long BITS = 42;

    @Param({"0"})
    public int entries;

    private NiHandle ni;
    private int pt;
    private CtHandle ct;
    private MdHandle md;
    private long completed;
    private final MemorySegment operand = Arena.ofAuto().allocate(8, 8);

    @Setup(Level.Trial)
    public void setUp() {
        init();
        ni = niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
        pt = ptAlloc(ni, 0, EQ_NONE, PT_ANY);
        for (int i = 0; i < entries; i++) {
            Me other = new Me();
            other.start = Arena.ofAuto().allocate(8, 8);
            other.length = 8;
            other.matchBits = 1_000_000 + i;
            other.options = ME_OP_PUT | ME_OP_GET;
            other.ctHandle = CT_NONE;
            meAppend(ni, pt, other, PRIORITY_LIST, null);
        }
        Me me = new Me();
        me.start = Arena.ofAuto().allocate(64, 8);
        me.length = 64;
        me.matchBits = BITS;
        me.options = ME_OP_PUT | ME_OP_GET;
        me.ctHandle = CT_NONE;
        meAppend(ni, pt, me, PRIORITY_LIST, null);
        ct = ctAlloc(ni);
        Md d = new Md();
        d.start = Arena.ofAuto().allocate(64, 8);
        d.length = 64;
        d.eqHandle = EQ_NONE;
        d.ctHandle = ct;
        d.options = MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY;
        md = mdBind(ni, d);
        MemorySegment one = d.start;
        one.set(java.lang.foreign.ValueLayout.JAVA_LONG, 8, 1);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        mdRelease(md);
        ctFree(ct);
        niFini(ni);
        fini();
    }

    @Benchmark
    public long putWithAck() {
        put(md, 0, 8, CT_ACK_REQ, SELF, pt, BITS, 0, null, 0);
        return ctWait(ct, ++completed).success();
    }

    @Benchmark
    public long getWithReply() {
        get(md, 0, 8, SELF, pt, BITS, 8, null);
        return ctWait(ct, ++completed).success();
    }

    @Benchmark
    public long fetchAdd() {
        fetchAtomic(md, 16, md, 8, 8, SELF, pt, BITS, 24, null, 0, SUM, INT64_T);
        return ctWait(ct, ++completed).success();
    }

    /**
     * A put, a get, a fetch-add and a compare-and-swap, each waited for: an application mixes
     * them, and a call site the four share then sees several kinds of operation (the JIT inlines
     * at most two), which is where an operation's lambdas once came back (about 100 B each).
     */
    @Benchmark
    public long mixed() {
        put(md, 0, 8, CT_ACK_REQ, SELF, pt, BITS, 0, null, 0);
        get(md, 0, 8, SELF, pt, BITS, 8, null);
        fetchAtomic(md, 16, md, 8, 8, SELF, pt, BITS, 24, null, 0, SUM, INT64_T);
        swap(md, 32, md, 40, 8, SELF, pt, BITS, 32, null, 0, operand, CSWAP, INT64_T);
        completed += 4;
        return ctWait(ct, completed).success();
    }
}
