package dev.ferry.conformance;

import dev.ferry.spi.Capabilities;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.Driver;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Settings;
import dev.ferry.spi.Status;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The far end of the conformance kit: opens contexts of a driver and runs simple behaviours on
 * them (echo, flood, rendezvous-data round trip) on command. The same code runs in a thread of
 * the test JVM (drivers that stay in one process) or in a child JVM ({@link PeerMain}).
 *
 * <p>Commands, one line each, answered by one line starting with {@code ok} or {@code err}:
 * <pre>
 *   open K                  open K contexts; answer: ok URL1 ... URLK
 *   connect C URL           new instance on context C, connectAsync(URL); answer: ok STATUS
 *   serve C MODE [ARGS]     connectWait on C's instance in a worker thread, then run MODE:
 *                             echo           receive packets and send each back
 *                             flood N SIZE   send N packets of SIZE bytes: int C, int seq, pattern
 *                             rdv SIZE       post a SIZE-byte receive, send its rendezvous data,
 *                                            check the data received, send back its length (long)
 *                             pull N SIZE    receive N packets of pull data (the kit exposed N
 *                                            SIZE-byte packets, seeds 40, 41, ...), pull them in
 *                                            reverse order, exposure k taking SIZE - 100 k bytes
 *                                            and the first none (a release), check them, send
 *                                            back each one's verdict (long: bytes that checked, -1
 *                                            when wrong, -2 for a packet 8 bytes longer than pull data: not exposed)
 *                             idle           nothing after connecting
 *   finished C              answer: ok STATUS-OF-C's-WORKER-OR-running
 *   disconnect C            answer: ok STATUS
 *   closectx C              close context C without disconnecting (to its peers: a death)
 *   closeall                the same for every context
 *   report                  ok, or err with the first worker failure
 *   exit
 * </pre>
 */
public final class PeerAgent implements AutoCloseable {
    private final Driver driver;
    private final List<DriverContext> contexts = new ArrayList<>();
    private final List<Capabilities> caps = new ArrayList<>();
    private final List<DriverInstance> instances = new ArrayList<>();
    private final List<Thread> workers = new ArrayList<>();
    private final List<AtomicReference<String>> outcomes = new ArrayList<>();
    private final AtomicReference<String> firstFailure = new AtomicReference<>();
    private volatile boolean stopping;

    private final Settings settings;

    /** An agent whose contexts read their settings from the environment (a peer JVM's, where the kit puts them). */
    public PeerAgent(Driver driver) {
        this(driver, Settings.fromEnvironment());
    }

    /** An agent whose contexts read {@code settings}. */
    public PeerAgent(Driver driver, Settings settings) {
        this.driver = driver;
        this.settings = settings;
    }

    /** Executes one command line and returns the answer line. */
    public String handle(String line) {
        String[] w = line.strip().split(" ");
        try {
            return switch (w[0]) {
                case "open" -> open(Integer.parseInt(w[1]));
                case "connect" -> "ok " + instance(w[1], true).connectAsync(DriverUrl.parse(w[2]));
                case "serve" -> serve(Integer.parseInt(w[1]), w);
                case "finished" -> "ok " + outcomes.get(Integer.parseInt(w[1])).get();
                case "disconnect" -> "ok " + instance(w[1], false).disconnect();
                case "closectx" -> {
                    contexts.get(Integer.parseInt(w[1])).close();
                    yield "ok";
                }
                case "closeall" -> {
                    contexts.forEach(DriverContext::close);
                    yield "ok";
                }
                case "report" -> firstFailure.get() == null ? "ok" : "err " + firstFailure.get();
                case "exit" -> {
                    close();
                    yield "ok";
                }
                default -> "err unknown command '" + w[0] + "'";
            };
        } catch (RuntimeException e) {
            return "err " + e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).replace('\n', ' ');
        }
    }

    private String open(int k) {
        StringBuilder sb = new StringBuilder("ok");
        for (int i = 0; i < k; i++) {
            // The kit's test end is rank 0; the peer contexts are ranks 1..k.
            DriverContext ctx = driver.newContext(new Hints(k + 1, i + 1, true, Map.of(), settings));
            caps.add(ctx.properties().capabilities());
            DriverUrl url = ctx.init();
            contexts.add(ctx);
            instances.add(null);
            workers.add(null);
            outcomes.add(new AtomicReference<>("idle"));
            sb.append(' ').append(url.toText());
        }
        return sb.toString();
    }

    private DriverInstance instance(String index, boolean create) {
        int c = Integer.parseInt(index);
        if (create) {
            instances.set(c, contexts.get(c).newInstance());
        }
        DriverInstance inst = instances.get(c);
        if (inst == null) {
            throw new IllegalStateException("context " + c + " has no instance");
        }
        return inst;
    }

    private String serve(int c, String[] w) {
        DriverInstance inst = instance(String.valueOf(c), false);
        Capabilities cap = caps.get(c);
        Thread old = workers.get(c);
        if (old != null) {
            try {
                old.join(Transfers.TIMEOUT.toMillis()); // e.g. an idle worker still connecting
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (old.isAlive()) {
                return "err context " + c + " is still serving after " + Transfers.TIMEOUT.toSeconds() + " s";
            }
        }
        outcomes.get(c).set("running");
        Thread t = Thread.ofPlatform().daemon().name("peer-" + c + "-" + w[2]).start(() -> {
            String outcome;
            try {
                Status cw = inst.connectWait();
                if (cw != Status.DONE && cw != Status.NOT_IMPLEMENTED) {
                    throw new IllegalStateException("connectWait answered " + cw);
                }
                outcome = switch (w[2]) {
                    case "echo" -> echo(inst, cap);
                    case "flood" -> flood(c, inst, Integer.parseInt(w[3]), Integer.parseInt(w[4]));
                    case "rdv" -> rdv(inst, cap, Long.parseLong(w[3]));
                    case "pull" -> pull(inst, cap, Integer.parseInt(w[3]), Long.parseLong(w[4]));
                    case "idle" -> "DONE";
                    default -> throw new IllegalArgumentException("unknown mode " + w[2]);
                };
            } catch (RuntimeException e) {
                outcome = "FAILED " + e;
                if (!stopping) {
                    firstFailure.compareAndSet(null, "context " + c + " " + w[2] + ": " + e);
                }
            }
            outcomes.get(c).set(outcome);
        });
        workers.set(c, t);
        return "ok";
    }

    /** Echoes every packet until the connection ends; answers the status that ended it. */
    private String echo(DriverInstance inst, Capabilities cap) {
        long max = Math.min(cap.maxPacketSize(), DriverConformanceTest.MAX_TESTED_PACKET);
        MemorySegment in = Transfers.allocate(max);
        Packet p = new Packet();
        Packet out = new Packet();
        IoVec reply = new IoVec(1);
        while (!stopping) {
            long n;
            Status s;
            if (cap.supportsBufRecv()) {
                p.reset();
                s = waitFor(() -> inst.recvPoll(p));
                if (s == Status.DONE) {
                    n = p.length();
                    MemorySegment.copy(p.buffer(), 0, in, 0, n);
                    inst.recvBufRelease(p);
                } else if (s == Status.INVALID) {
                    s = postAndWait(inst, p, in);
                    n = p.length();
                } else {
                    return s.name();
                }
            } else {
                s = postAndWait(inst, p, in);
                n = p.length();
            }
            if (s != Status.DONE) {
                return s.name();
            }
            out.reset();
            out.useIov(reply.clear().add(in.asSlice(0, n)));
            Status sent = Transfers.send(inst, out);
            if (sent != Status.DONE) {
                return sent.name();
            }
        }
        return "STOPPED";
    }

    private Status postAndWait(DriverInstance inst, Packet p, MemorySegment in) {
        p.reset();
        p.useIov(IoVec.of(in));
        Status s = inst.recvPost(p);
        return s == Status.DONE ? waitFor(() -> inst.recvPoll(p)) : s;
    }

    /** Polls without a deadline (an echo may idle for a whole test) but stops with the agent. */
    private Status waitFor(java.util.function.Supplier<Status> step) {
        for (int round = 0; ; round++) {
            Status s = step.get();
            if (s != Status.NOT_YET || stopping) {
                return s;
            }
            if (round > 100) {
                Thread.yield();
            }
        }
    }

    private String flood(int c, DriverInstance inst, int count, int size) {
        MemorySegment m = Transfers.allocate(size);
        Packet p = new Packet();
        for (int seq = 0; seq < count; seq++) {
            Transfers.fill(m, seq);
            if (size >= 8) {
                m.set(ValueLayout.JAVA_INT_UNALIGNED, 0, c);
                m.set(ValueLayout.JAVA_INT_UNALIGNED, 4, seq);
            }
            Status s = Transfers.sendContiguous(inst, m, p);
            if (s != Status.DONE) {
                throw new IllegalStateException("flood packet " + seq + ": " + s);
            }
        }
        return "DONE";
    }

    /** A packet that receives into {@code in}, in the form the driver takes (a data layout, else an iovec). */
    private static Packet receiving(MemorySegment in, Capabilities cap) {
        Packet p = new Packet();
        if (cap.supportsData()) {
            p.useData(DataLayout.contiguous(in));
        } else {
            p.useIov(IoVec.of(in));
        }
        return p;
    }

    private String rdv(DriverInstance inst, Capabilities cap, long size) {
        MemorySegment in = Transfers.allocate(size);
        Packet p = receiving(in, cap);
        Status s = inst.recvPost(p);
        if (s != Status.DONE) {
            throw new IllegalStateException("rdv receive post: " + s);
        }
        // The upper layer's job, done here by hand: carry the rendezvous data to the sender.
        MemorySegment rdv = p.rdvData();
        MemorySegment copy = Transfers.allocate(rdv.byteSize());
        MemorySegment.copy(rdv, 0, copy, 0, rdv.byteSize());
        Status sent = Transfers.sendContiguous(inst, copy, new Packet());
        if (sent != Status.DONE) {
            throw new IllegalStateException("sending rendezvous data: " + sent);
        }
        s = Transfers.await(() -> inst.recvPoll(p), "rdv receive");
        long result = s == Status.DONE && p.length() == size && Transfers.checkPattern(in, 99) < 0 ? p.length() : -1;
        MemorySegment reply = Transfers.allocate(8);
        reply.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, result);
        Status r = Transfers.sendContiguous(inst, reply, new Packet());
        if (r != Status.DONE) {
            throw new IllegalStateException("sending rdv result: " + r);
        }
        return "DONE";
    }

    /** Bytes the peer pulls of exposure {@code k} of the {@code pull} mode: none of the first, a shorter prefix of each later one. */
    static long pullWanted(int k, long size) {
        return k == 0 ? 0 : size - 100L * (k - 1);
    }

    private String pull(DriverInstance inst, Capabilities cap, int n, long size) {
        MemorySegment[] data = new MemorySegment[n];
        for (int k = 0; k < n; k++) {
            data[k] = Transfers.allocate(cap.pullDataSize() + 8);
            long got = Transfers.recvAny(inst, cap, data[k], new Packet());
            if (got == cap.pullDataSize() + 8) {
                data[k] = null; // the kit could not expose this one
            } else if (got != cap.pullDataSize()) {
                throw new IllegalStateException("pull data " + k + " of " + got + " bytes, not " + cap.pullDataSize());
            }
        }
        MemorySegment verdicts = Transfers.allocate(8L * n);
        for (int k = n - 1; k >= 0; k--) { // the reverse of the exposing order: pulls may come in any order
            if (data[k] == null) {
                verdicts.set(ValueLayout.JAVA_LONG_UNALIGNED, 8L * k, -2);
                continue;
            }
            long want = pullWanted(k, size);
            MemorySegment in = Transfers.allocate(want);
            Packet p = receiving(in, cap);
            Status s = inst.pullPost(p, data[k]);
            if (s != Status.DONE) {
                throw new IllegalStateException("pullPost of exposure " + k + ": " + s);
            }
            s = Transfers.await(() -> inst.pullPoll(p), "pull");
            boolean ok = s == Status.DONE && p.length() == want && (want == 0 || Transfers.checkPattern(in, 40 + k) < 0);
            verdicts.set(ValueLayout.JAVA_LONG_UNALIGNED, 8L * k, ok ? want : -1);
        }
        Status r = Transfers.sendContiguous(inst, verdicts, new Packet());
        if (r != Status.DONE) {
            throw new IllegalStateException("sending pull verdicts: " + r);
        }
        return "DONE";
    }

    @Override
    public void close() {
        stopping = true;
        for (Thread t : workers) {
            if (t != null) {
                try {
                    t.join(Transfers.TIMEOUT.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        for (DriverContext c : contexts) {
            c.close();
        }
    }
}
