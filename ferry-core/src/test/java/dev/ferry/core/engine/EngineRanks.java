package dev.ferry.core.engine;

import dev.ferry.core.config.EngineSettings;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.MessageHandler;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.SendRequest;
import dev.ferry.core.wire.WireHeader;
import dev.ferry.spi.Settings;
import dev.ferry.spi.Status;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

/**
 * Rank programs for the engine's multi-process tests, run under {@code ferry run}'s job runner.
 * Each prints {@code ok ...} lines the test checks, and throws (exit status 1) on any error.
 * <ul>
 *   <li>{@code sizes}: every rank sends every size class, 0 bytes to 64 MiB, to every rank
 *       (itself included), patterned, and checks every byte it receives; prints which rails
 *       each peer used;</li>
 *   <li>{@code flow}: rank 0 sends 1 GiB in 1 KiB messages to rank 1, which takes none for 2 s;
 *       rank 1 checks the order and reports the most unexpected data it ever held;</li>
 *   <li>{@code overlap}: rank 1 computes for 1 s without calling Ferry while rank 0's 64 MiB
 *       rendezvous arrives (progress thread);</li>
 *   <li>{@code failure}: rank 2 dies holding rank 0's rendezvous; rank 0's send fails BROKEN
 *       within the bound, and ranks 0 and 1 carry on;</li>
 *   <li>{@code unexpected}: rank 0 sends 100 rendezvous messages (half from the shared arena, half
 *       from plain off-heap memory); rank 1 keeps them all before receiving any, then receives
 *       them in reverse order, some truncated, some dropped, and checks every byte; more messages
 *       wait than a driver can keep exposed for pulling, so both rendezvous kinds are used;</li>
 *   <li>{@code throws}: rank 1 throws out of its {@code try (Engine e = ...)} block while rank 0
 *       waits for a message from it and rank 2 computes without calling Ferry: rank 1 must leave at
 *       once, and rank 0 hear that it is gone.</li>
 * </ul>
 */
public final class EngineRanks {
    static final Duration BOUND = Duration.ofSeconds(60);
    static final long[] SIZES = {0, 1, 7, 8, 100, 1000, 4095, 4096, 8144, 8145, 16360, 16361, 65536, 262147, 1 << 20, (4 << 20) + 3, 64 << 20};

    private EngineRanks() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "throws" -> throwing();
            case "confined" -> confined();
            case "sizes" -> System.out.println(sizes(new EngineConfig()));
            case "sizes-from-heap" -> System.out.println(sizes(new EngineConfig(), true));
            // ranks may differ: FERRY_RNDV_PULL is about what a rank sends
            case "sizes-rank1-without-pull" -> System.out.println(sizes(new EngineConfig().settings("1".equals(System.getenv("PMI_RANK"))
                    ? Settings.fromEnvironment().with(EngineSettings.RNDV_PULL.name(), "off") : Settings.fromEnvironment())));
            case "flow" -> flow();
            case "overlap" -> overlap();
            case "failure" -> failure();
            case "dies-landing" -> diesLanding(args[1].equals("arena"));
            case "burst" -> burst();
            case "unexpected" -> unexpected();
            case "planned" -> planned();
            case "rts-burst" -> rtsBurst();
            case "sender-computes" -> senderComputes(args[1]);
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.flush();
    }

    static byte pattern(int src, long size, long i) {
        return (byte) (src * 31 + size * 7 + i * 13 + (i >>> 8));
    }

    static void fill(MemorySegment m, int src, long size) {
        for (long i = 0; i < size; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, pattern(src, size, i));
        }
    }

    static void check(MemorySegment m, int src, long size) {
        for (long i = 0; i < size; i++) {
            if (m.get(ValueLayout.JAVA_BYTE, i) != pattern(src, size, i)) {
                throw new IllegalStateException("byte " + i + " of " + size + " from rank " + src + " is wrong");
            }
        }
    }

    /**
     * Every rank sends every size to every rank (itself too), checks what it receives and the
     * order per source, then a truncation; answers a line saying what moved over which rails.
     */
    static String sizes(EngineConfig config) {
        return sizes(config, false);
    }

    /** {@link #sizes(EngineConfig)}, sending from a heap array with {@code fromHeap}: no driver or agent reaches it as it is. */
    static String sizes(EngineConfig config, boolean fromHeap) {
        Inbox inbox = new Inbox();
        try (Engine e = Engine.init(config, inbox)) {
            inbox.attach(e);
            int n = e.size();
            int me = e.rank();
            long max = SIZES[SIZES.length - 1];
            MemorySegment out = fromHeap ? MemorySegment.ofArray(new byte[(int) max]) : e.memory().allocate(max);
            MemorySegment in = Arena.ofAuto().allocate(max, 4096);
            SendRequest[] sends = new SendRequest[n];
            for (int p = 0; p < n; p++) {
                sends[p] = new SendRequest();
            }
            RecvRequest r = new RecvRequest();
            long total = 0;
            int[] next = new int[n]; // per source, the size class due next: order per source is kept
            for (long size : SIZES) {
                fill(out, me, size);
                for (int p = 0; p < n; p++) {
                    e.send(sends[p].to(p, size, out.asSlice(0, size)));
                }
                for (int k = 0; k < n; k++) {
                    // One message per source, each source's first: taking whichever came first could
                    // take a faster rank's next size in place of this rank's rendezvous to itself,
                    // and the join below would then wait for a send only this rank can receive.
                    int from = (me + k) % n;
                    Message m = inbox.take(x -> x.source() == from, BOUND);
                    long due = SIZES[next[m.source()]++];
                    if (m.header() != due || m.length() != due) {
                        throw new IllegalStateException("expected a message of " + due + " bytes from rank " + m.source() + ", got " + m);
                    }
                    m.receive(in.asSlice(0, due), r);
                    r.join(BOUND);
                    if (r.received() != due || r.truncated()) {
                        throw new IllegalStateException("received " + r.received() + " of " + due);
                    }
                    check(in, m.source(), due);
                    total += due;
                }
                for (SendRequest s : sends) {
                    s.join(BOUND);
                }
            }
            // truncation: a message longer than its destination fills it and says so
            e.send(sends[me].to(me, 1, out.asSlice(0, 100_000)));
            Message m = inbox.take(BOUND);
            m.receive(in.asSlice(0, 1000), r);
            r.join(BOUND);
            sends[me].join(BOUND);
            if (!r.truncated() || r.received() != 1000) {
                throw new IllegalStateException("truncation: received " + r.received() + ", truncated " + r.truncated());
            }
            StringBuilder rails = new StringBuilder();
            for (int p = 0; p < n; p++) {
                rails.append(' ').append(p).append('=').append(String.join("+", e.rails(p)));
            }
            StringBuilder rdv = new StringBuilder();
            for (int p = 0; p < n; p++) {
                for (String c : e.rails(p)) {
                    if (rdv.indexOf(" " + c + "=") < 0) {
                        rdv.append(' ').append(c).append('=').append(e.stats().rendezvousBytes(c));
                    }
                }
            }
            return "ok sizes rank " + me + " received " + total + " bytes; rails" + rails
                    + "; rendezvous bytes sent" + rdv + "; aggregated packets " + e.stats().aggregatedPackets()
                    + "; pulled rendezvous " + e.stats().rendezvousExposed() + " of " + e.stats().rendezvousStarted()
                    + "; waits spin " + e.idleStrategy().spinNanos() / 1000 + " us";
        }
    }

    private static void flow() throws InterruptedException {
        Inbox inbox = new Inbox();
        try (Engine e = Engine.init(inbox)) {
            inbox.attach(e);
            long count = (1L << 27) / 1024; // 128 MiB: hundreds of times the credits
            if (e.rank() == 0) {
                int window = 64;
                SendRequest[] s = new SendRequest[window];
                MemorySegment[] bufs = new MemorySegment[window];
                for (int i = 0; i < window; i++) {
                    s[i] = new SendRequest();
                    bufs[i] = Arena.ofAuto().allocate(1024);
                }
                for (long i = 0; i < count; i++) {
                    int k = (int) (i % window);
                    if (i >= window) {
                        s[k].join(BOUND);
                    }
                    bufs[k].set(ValueLayout.JAVA_LONG, 0, i);
                    bufs[k].set(ValueLayout.JAVA_LONG, 1016, ~i);
                    e.send(s[k].to(1, i, bufs[k]));
                }
                for (SendRequest x : s) {
                    x.join(BOUND);
                }
                System.out.println("ok flow sent " + count + " messages");
            } else if (e.rank() == 1) {
                Thread.sleep(2000); // not receiving: the progress thread keeps what arrives, within credits
                long heldAfterPause = e.stats().heldBytes();
                MemorySegment in = Arena.ofAuto().allocate(1024);
                RecvRequest r = new RecvRequest();
                for (long i = 0; i < count; i++) {
                    Message m = inbox.take(BOUND);
                    if (m.header() != i) {
                        throw new IllegalStateException("message " + m.header() + " arrived where " + i + " was due");
                    }
                    m.receive(in, r);
                    r.join(BOUND);
                    if (in.get(ValueLayout.JAVA_LONG, 0) != i || in.get(ValueLayout.JAVA_LONG, 1016) != ~i) {
                        throw new IllegalStateException("message " + i + " has the wrong content");
                    }
                }
                Runtime rt = Runtime.getRuntime();
                System.out.println("ok flow received " + count + " in order; held after the pause " + heldAfterPause
                        + " B; held at most " + e.stats().heldMax() + " B; heap used " + (rt.totalMemory() - rt.freeMemory()) / (1 << 20) + " MiB");
            }
        }
    }

    /** Rank 0 queues 20000 small messages to a rank that is not receiving yet: they leave aggregated. */
    private static void burst() {
        Inbox inbox = new Inbox();
        try (Engine e = Engine.init(inbox)) {
            inbox.attach(e);
            int count = 20000; // 480 KB of immediate entries: more than the credits, so they queue
            if (e.rank() == 0) {
                SendRequest[] s = new SendRequest[count];
                MemorySegment m = Arena.ofAuto().allocate(8L * count);
                for (int i = 0; i < count; i++) {
                    m.set(ValueLayout.JAVA_LONG, 8L * i, i);
                    e.send((s[i] = new SendRequest()).to(1, i, m.asSlice(8L * i, 8)));
                }
                for (SendRequest x : s) {
                    x.join(BOUND);
                }
                System.out.println("ok burst sent " + count + " messages in " + e.stats().packets() + " packets, "
                        + e.stats().aggregatedPackets() + " of them aggregated");
            } else if (e.rank() == 1) {
                // Not taking anything until the sender has run out of credits: from then on its
                // messages queue, and leave aggregated as credits come back (or, asked for credits
                // while we take nothing, as rendezvous envelopes: their bytes come once received).
                long full = EngineSettings.credits(Settings.fromEnvironment()) - WireHeader.PACKET_HEADER - 2L * WireHeader.immediateBytes(8);
                long end = System.nanoTime() + BOUND.toNanos();
                while (e.stats().heldBytes() < full) {
                    e.progress();
                    if (System.nanoTime() > end) {
                        throw new IllegalStateException("the sender never filled its credits: held " + e.stats().heldBytes());
                    }
                }
                MemorySegment in = Arena.ofAuto().allocate(8);
                RecvRequest r = new RecvRequest();
                for (int i = 0; i < count; i++) {
                    Message msg = inbox.take(BOUND);
                    msg.receive(in, r);
                    r.join(BOUND);
                    if (msg.header() != i || in.get(ValueLayout.JAVA_LONG, 0) != i) {
                        throw new IllegalStateException("message " + i + " out of order: " + msg);
                    }
                }
                System.out.println("ok burst received " + count + " in order");
            }
        }
    }

    private static void unexpected() {
        Inbox inbox = new Inbox();
        try (Engine e = Engine.init(inbox)) {
            inbox.attach(e);
            int count = 100;
            inboxOpeningExchange(e, inbox); // every send below may be exposed: the peer has attached
            if (e.rank() == 0) {
                SendRequest[] s = new SendRequest[count];
                for (int i = 0; i < count; i++) {
                    long size = 65536 + 8L * i;
                    MemorySegment m = i % 2 == 0 ? e.memory().allocate(size) : Arena.ofAuto().allocate(size, 4096);
                    fill(m, 0, size);
                    e.send((s[i] = new SendRequest()).to(1, i, m));
                }
                for (SendRequest x : s) {
                    x.join(BOUND);
                }
                System.out.println("ok unexpected sent " + count + "; pulled rendezvous " + e.stats().rendezvousExposed()
                        + " of " + e.stats().rendezvousStarted());
            } else if (e.rank() == 1) {
                Message[] kept = new Message[count];
                for (int i = 0; i < count; i++) {
                    kept[i] = inbox.take(BOUND);
                    if (kept[i].header() != i) {
                        throw new IllegalStateException("message " + i + " out of order: " + kept[i]);
                    }
                }
                MemorySegment in = Arena.ofAuto().allocate(1 << 20, 4096);
                RecvRequest r = new RecvRequest();
                int dropped = 0, truncated = 0;
                for (int i = count - 1; i >= 0; i--) {
                    long size = 65536 + 8L * i;
                    if (i % 7 == 3) {
                        kept[i].drop();
                        dropped++;
                        continue;
                    }
                    long room = i % 3 == 1 ? size / 2 + 5 : size;
                    in.fill((byte) 0);
                    kept[i].receive(in.asSlice(0, room), r);
                    r.join(BOUND);
                    if (r.received() != room || r.truncated() != (room < size)) {
                        throw new IllegalStateException("message " + i + ": received " + r.received() + " of " + room + ", truncated " + r.truncated());
                    }
                    for (long k = 0; k < room; k++) {
                        if (in.get(ValueLayout.JAVA_BYTE, k) != pattern(0, size, k)) {
                            throw new IllegalStateException("byte " + k + " of message " + i + " is wrong");
                        }
                    }
                    if (in.get(ValueLayout.JAVA_BYTE, room) != 0) {
                        throw new IllegalStateException("message " + i + " wrote past its " + room + "-byte destination");
                    }
                    truncated += room < size ? 1 : 0;
                }
                System.out.println("ok unexpected received " + (count - dropped) + " in reverse order, " + truncated + " truncated, " + dropped + " dropped");
            }
        }
    }

    /**
     * Rank 0 exposes 40 rendezvous messages from its shared arena while rank 1 makes no
     * progress (it waits for the file {@code FERRY_TEST_SIGNAL}, which rank 0 creates once all
     * are posted); then rank 1's handler receives each as it is parsed. Their RTS wait in the ring
     * together, so their pulls run in batches of up to 16, in order, each byte checked.
     */
    private static void planned() throws Exception {
        java.nio.file.Path signal = java.nio.file.Path.of(System.getenv("FERRY_TEST_SIGNAL"));
        int count = 40;
        long size = 65536;
        MemorySegment[] in = buffers(count, size);
        RecvRequest[] r = requests(count);
        int[] next = new int[1];
        MessageHandler h = m -> {
            int i = next[0]++;
            if (m.header() == -1) {
                return; // the opening exchange: dropped
            }
            if (m.header() != i - 1) {
                throw new IllegalStateException("message " + m.header() + " arrived as number " + (i - 1));
            }
            m.receive(in[i - 1], r[i - 1]);
        };
        try (Engine e = Engine.init(h)) {
            long end = System.nanoTime() + BOUND.toNanos();
            if (e.rank() == 0) {
                openingExchange(e, next, end);
                SendRequest[] s = new SendRequest[count];
                for (int i = 0; i < count; i++) {
                    MemorySegment m = e.memory().allocate(size); // the shared arena: exposed at once (ordinary memory waits for a probe of process_vm_readv)
                    fill(m, i, size);
                    e.send((s[i] = new SendRequest()).to(1, i, m));
                }
                e.progress(); // the RTS held behind the first (a burst) leave in this pass
                java.nio.file.Files.createFile(signal);
                for (SendRequest x : s) {
                    x.join(BOUND);
                }
                System.out.println("ok planned sent " + count + "; pulled rendezvous " + e.stats().rendezvousExposed() + " of " + e.stats().rendezvousStarted());
            } else if (e.rank() == 1) {
                openingExchange(e, next, end);
                while (!java.nio.file.Files.exists(signal)) { // no progress meanwhile: the RTS pile up
                    Thread.onSpinWait();
                    if (System.nanoTime() > end) {
                        throw new IllegalStateException("rank 0 never said all were posted");
                    }
                }
                receiveAll(e, next, 1 + count, r, in, size, end); // the opening message, then the rest
                System.out.println("ok planned received " + count + " in order; " + e.stats().batchedPulls() + " pulls in "
                        + e.stats().pullBatches() + " batches");
            }
        }
    }

    /**
     * Rank 0 sends rank 1 16 MiB (from {@code memory}: a heap array, native memory, or the
     * engine's shared arena, which rank 1 then receives into too) and then makes no call until
     * rank 1 has received every byte and says so by creating the file {@code FERRY_TEST_SIGNAL}:
     * the bytes must move without the sender, as the node agents pull them. Then its send
     * completes at its next call. Then it sends 64 MiB + 1 from the same kind of memory, with
     * calls: heap memory that large is not staged but goes through the rings. Each rank then
     * says how many of its pulled bytes the agent moved between its link and mapped memory.
     */
    private static void senderComputes(String memory) throws Exception {
        java.nio.file.Path signal = java.nio.file.Path.of(System.getenv("FERRY_TEST_SIGNAL"));
        int size = 16 << 20, large = (64 << 20) + 1;
        Inbox inbox = new Inbox();
        try (Engine e = Engine.init(inbox)) {
            inbox.attach(e);
            inboxOpeningExchange(e, inbox);
            long end = System.nanoTime() + BOUND.toNanos();
            if (e.rank() == 0) {
                SendRequest s = new SendRequest();
                e.send(s.to(1, 7, filled(e, memory, size)));
                while (!java.nio.file.Files.exists(signal)) { // no call into the engine meanwhile
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                    if (System.nanoTime() > end) {
                        throw new IllegalStateException("rank 1 did not receive the 16 MiB while this rank made no call: done " + s.isDone());
                    }
                }
                s.join(BOUND);
                e.send(s.to(1, 8, filled(e, memory, large)));
                s.join(BOUND);
                System.out.println("ok sender-computes sent " + size + " from " + memory + " memory"
                        + " while making no call, then " + large + "; pulled rendezvous " + e.stats().rendezvousExposed() + " of "
                        + e.stats().rendezvousStarted() + "; mapped " + mappedBytes(e));
            } else if (e.rank() == 1) {
                long first = receiveChecked(e, inbox, 7, size, memory);
                java.nio.file.Files.createFile(signal);
                System.out.println("ok sender-computes received " + first + " and " + receiveChecked(e, inbox, 8, large, memory) + "; mapped " + mappedBytes(e));
            }
        }
    }

    /** The bytes of this rank's pulls that its agent moved between a link and mapped memory, as its stats line says. */
    private static long mappedBytes(Engine e) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("agent pulled bytes, mapped (\\d+)").matcher(e.statsLine());
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** {@code size} bytes of rank 0's pattern, in a heap array, native memory or the engine's shared arena ({@code memory}). */
    private static MemorySegment filled(Engine e, String memory, int size) {
        MemorySegment m = switch (memory) {
            case "heap" -> MemorySegment.ofArray(new byte[size]);
            case "arena" -> e.memory().allocate(size);
            default -> Arena.ofAuto().allocate(size);
        };
        fill(m, 0, size);
        return m;
    }

    /**
     * Receives the message of {@code header} from rank 0 into native memory (the engine's shared
     * arena with {@code arena}), checks its {@code size} bytes, and answers how many came.
     */
    private static long receiveChecked(Engine e, Inbox inbox, long header, int size, String memory) {
        Message m = inbox.take(x -> x.header() == header, BOUND);
        MemorySegment in = switch (memory) {
            case "arena" -> e.memory().allocate(size);
            case "heap" -> MemorySegment.ofArray(new byte[size]);
            default -> Arena.ofAuto().allocate(size);
        };
        RecvRequest r = new RecvRequest();
        m.receive(in, r);
        r.join(BOUND);
        check(in, 0, size);
        return r.received();
    }

    /**
     * {@link #openingExchange} for a job that takes its messages from an {@link Inbox}: rank 0
     * sends a message of header -1, rank 1 drops it and answers, rank 0 drops the answer.
     */
    private static void inboxOpeningExchange(Engine e, Inbox inbox) {
        SendRequest hello = new SendRequest();
        int peer = 1 - e.rank();
        if (e.rank() == 0) {
            e.send(hello.to(peer, -1, Arena.ofAuto().allocate(8)));
            hello.join(BOUND);
        }
        inbox.take(m -> m.header() == -1, BOUND).drop();
        if (e.rank() == 1) {
            e.send(hello.to(peer, -1, Arena.ofAuto().allocate(8))); // the answer rank 0 waits for
            hello.join(BOUND);
        }
    }

    /**
     * Ranks 0 and 1 exchange a message of header -1 (their handlers drop it, counted in
     * {@code next[0]}), rank 0 sending first. Rank 1's answer proves its side attached: the creator
     * of an shm channel may write into the ring before that, but exposes nothing until it sees the
     * peer (those sends go by RTS and CTS), and the jobs that call this need every send exposed.
     */
    private static void openingExchange(Engine e, int[] next, long end) {
        SendRequest hello = new SendRequest();
        if (e.rank() == 0) {
            e.send(hello.to(1, -1, Arena.ofAuto().allocate(8)));
            hello.join(BOUND);
        }
        while (next[0] == 0) {
            e.progress();
            if (System.nanoTime() > end) {
                throw new IllegalStateException("rank " + e.rank() + ": no opening message within " + BOUND);
            }
        }
        if (e.rank() == 1) {
            e.send(hello.to(0, -1, Arena.ofAuto().allocate(8))); // the answer rank 0 waits for
            hello.join(BOUND);
        }
    }

    /**
     * Rank 0 sends 16 rendezvous messages of 64 KiB in a row, then waits. Over tcp (RTS and CTS):
     * the RTS leave in one packet at its first progress pass, the CTS come back in one, and one
     * DATA packet announces the 16 chunks. Over shm (the memory is from {@code allocate}: pulled):
     * the first RTS leaves at once, the other 15 in one packet at the first progress pass.
     */
    private static void rtsBurst() {
        int count = 16;
        long size = 65536;
        MemorySegment[] in = buffers(count, size);
        RecvRequest[] r = requests(count);
        int[] next = new int[1];
        MessageHandler h = m -> {
            int i = next[0]++;
            if (m.header() != -1) { // -1: the opening exchange, dropped
                m.receive(in[i - 1], r[i - 1]);
            }
        };
        try (Engine e = Engine.init(h)) {
            long end = System.nanoTime() + BOUND.toNanos();
            openingExchange(e, next, end);
            if (e.rank() == 0) {
                SendRequest[] s = new SendRequest[count];
                for (int i = 0; i < count; i++) {
                    MemorySegment m = e.memory().allocate(size); // shm: its shared arena; tcp: ordinary memory
                    fill(m, i, size);
                    e.send((s[i] = new SendRequest()).to(1, i, m));
                }
                for (SendRequest x : s) {
                    x.join(BOUND);
                }
                System.out.println("ok rts-burst sent " + count + "; " + e.stats().aggregatedMessages() + " entries in "
                        + e.stats().aggregatedPackets() + " aggregated packets; " + e.stats().chunksAnnounced() + " chunks in "
                        + e.stats().dataPackets() + " DATA packets; " + e.stats().rendezvousExposed() + " exposed");
            } else if (e.rank() == 1) {
                receiveAll(e, next, 1 + count, r, in, size, end); // the opening message, then the rest
                System.out.println("ok rts-burst received " + count + "; " + e.stats().aggregatedMessages() + " entries in "
                        + e.stats().aggregatedPackets() + " aggregated packets");
            }
        }
    }

    private static MemorySegment[] buffers(int count, long size) {
        MemorySegment[] b = new MemorySegment[count];
        for (int i = 0; i < count; i++) {
            b[i] = Arena.ofAuto().allocate(size, 4096);
        }
        return b;
    }

    private static RecvRequest[] requests(int count) {
        RecvRequest[] r = new RecvRequest[count];
        for (int i = 0; i < count; i++) {
            r[i] = new RecvRequest();
        }
        return r;
    }

    /**
     * Makes progress until the handler took {@code handled} messages (counted in {@code next[0]};
     * a request not yet started has no engine to progress), then waits for the receives {@code r}
     * and checks each destination (message {@code i} carries pattern {@code i}).
     */
    private static void receiveAll(Engine e, int[] next, int handled, RecvRequest[] r, MemorySegment[] in, long size, long end) {
        while (next[0] < handled) {
            e.progress();
            if (System.nanoTime() > end) {
                throw new IllegalStateException("only " + next[0] + " of " + handled + " messages within " + BOUND);
            }
        }
        for (int i = 0; i < r.length; i++) {
            r[i].join(BOUND);
            check(in[i], i, size);
        }
    }

    private static void overlap() throws InterruptedException {
        long size = 64L << 20;
        MemorySegment buf = Arena.ofAuto().allocate(size, 4096);
        RecvRequest r = new RecvRequest();
        long[] doneAt = new long[1];
        java.util.concurrent.CountDownLatch announced = new java.util.concurrent.CountDownLatch(1);
        MessageHandler h = m -> {
            m.receive(buf, r);
            announced.countDown();
        };
        try (Engine e = Engine.init(h)) {
            if (e.rank() == 0) {
                fill(buf, 0, size);
                SendRequest s = new SendRequest();
                e.send(s.to(1, 7, buf));
                s.join(BOUND);
                System.out.println("ok overlap sent");
            } else if (e.rank() == 1) {
                // the computation starts once the receive is posted (the progress thread took the
                // announcement), not at this rank's start: the sender's JVM may start later
                if (!announced.await(BOUND.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("the 64 MiB message was not announced within " + BOUND);
                }
                long start = System.nanoTime();
                long end = start + 1_000_000_000L;
                long x = 0;
                while (System.nanoTime() < end) { // computing, no Ferry call
                    x += x * 31 + 7;
                    if (doneAt[0] == 0 && r.isDone()) {
                        doneAt[0] = System.nanoTime();
                    }
                }
                if (doneAt[0] == 0) {
                    throw new IllegalStateException("the 64 MiB rendezvous did not complete during 1 s of computation (status " + r.status() + ")");
                }
                if (r.status() != Status.DONE) {
                    throw new IllegalStateException("rendezvous " + r.status() + ": " + r.failure());
                }
                check(buf, 0, size);
                System.out.println("ok overlap completed " + (doneAt[0] - start) / 1_000_000 + " ms into 1000 ms of computation (" + (x & 1) + ")");
            }
        }
    }

    /**
     * Four ranks on two nodes in agent mode, memory from the shared arena (which the agents map):
     * rank 0 sends rank 2 (the other node) 64 MiB, and rank 2 dies as the bytes land in its memory,
     * making no call. Rank 0's send ends (done if the agents read it all out first, else failed),
     * and its sends to rank 2 fail once the death is heard; then ranks 1 and 3, behind the same two agents, swap
     * 16 MiB from and into their arenas, whole.
     */
    private static void diesLanding(boolean arena) {
        Inbox inbox = new Inbox();
        Engine e = Engine.init(inbox);
        inbox.attach(e);
        int me = e.rank(), big = 64 << 20, size = 16 << 20;
        if (me == 2) {
            Message m = inbox.take(x -> x.header() == 1, BOUND);
            MemorySegment in = arena ? e.memory().allocate(big) : Arena.ofAuto().allocate(big);
            m.receive(in, new RecvRequest()); // the agents pull it straight into this memory...
            long end = System.nanoTime() + BOUND.toNanos();
            while (in.get(ValueLayout.JAVA_BYTE, 1) == 0 && in.get(ValueLayout.JAVA_BYTE, 2) == 0) { // ...and once bytes land
                if (System.nanoTime() > end) {
                    throw new IllegalStateException("no byte of the 64 MiB landed within " + BOUND);
                }
                Thread.onSpinWait();
            }
            System.out.println("ok dies-landing rank 2 dies as the bytes land");
            System.out.flush();
            Runtime.getRuntime().halt(3); // this rank dies without a word
        }
        if (me == 0) {
            MemorySegment out = arena ? e.memory().allocate(big) : Arena.ofAuto().allocate(big);
            fill(out, 0, big);
            SendRequest doomed = new SendRequest();
            e.send(doomed.to(2, 1, out));
            // it ends either way: DONE when the agents had read it all out before the death was heard
            // (as a send written to a socket is done), else failed; never left hanging
            Status st = doomed.await(Duration.ofSeconds(30));
            if (st != Status.DONE && st != Status.BROKEN && st != Status.CLOSED) {
                throw new IllegalStateException("the send to the dying rank ended " + st);
            }
            Status later = Status.DONE;
            long end = System.nanoTime() + BOUND.toNanos();
            while (later == Status.DONE) { // the death is heard: a send to the dead rank fails
                if (System.nanoTime() > end) {
                    throw new IllegalStateException("sends to the dead rank still succeed after " + BOUND);
                }
                SendRequest probe = new SendRequest();
                e.send(probe.to(2, 5, out.asSlice(0, 8)));
                later = probe.await(Duration.ofSeconds(30));
            }
            SendRequest go = new SendRequest();
            e.send(go.to(1, 2, out.asSlice(0, 8)));
            go.join(BOUND);
            System.out.println("ok dies-landing rank 0: the send to the dying rank ended; a later one " + later);
        } else if (me == 1 || me == 3) {
            if (me == 1) {
                inbox.take(x -> x.header() == 2, BOUND).drop(); // rank 2 is gone
            }
            MemorySegment out = arena ? e.memory().allocate(size) : Arena.ofAuto().allocate(size), in = arena ? e.memory().allocate(size) : Arena.ofAuto().allocate(size);
            fill(out, me, size);
            SendRequest s = new SendRequest();
            int peer = 4 - me;
            if (me == 1) {
                e.send(s.to(peer, 3, out));
            }
            Message m = inbox.take(x -> x.header() == 3, BOUND);
            RecvRequest r = new RecvRequest();
            m.receive(in, r);
            r.join(BOUND);
            check(in, peer, size);
            if (me == 3) {
                e.send(s.to(peer, 3, out));
            }
            s.join(BOUND);
            System.out.println("ok dies-landing rank " + me + " swapped " + size + " with rank " + peer);
        }
        e.close();
        System.out.println("ok dies-landing rank " + me + " closed");
    }

    private static void failure() {
        Inbox inbox = new Inbox();
        Engine e = Engine.init(inbox);
        inbox.attach(e);
        MemorySegment big = Arena.ofAuto().allocate(1 << 20);
        MemorySegment small = Arena.ofAuto().allocate(64);
        RecvRequest r = new RecvRequest();
        if (e.rank() == 2) {
            // hold rank 0's rendezvous announcement, tell rank 1, then die without a word
            Message m = inbox.take(BOUND);
            SendRequest s = new SendRequest();
            e.send(s.to(0, 99, small));
            s.join(BOUND);
            System.out.println("ok failure rank 2 dies holding " + m);
            System.out.flush();
            Runtime.getRuntime().halt(3);
        }
        if (e.rank() == 0) {
            SendRequest doomed = new SendRequest();
            e.send(doomed.to(2, 1, big));
            Message m = inbox.take(BOUND); // rank 2 has the announcement
            m.drop();
            long t0 = System.nanoTime();
            Status st = doomed.await(Duration.ofSeconds(30));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            if (st != Status.BROKEN && st != Status.CLOSED) {
                throw new IllegalStateException("the send to the dead rank ended " + st);
            }
            // the other gate carries on
            for (int i = 0; i < 100; i++) {
                SendRequest s = new SendRequest();
                e.send(s.to(1, i, big.asSlice(0, i % 2 == 0 ? 100 : 1 << 20)));
                s.join(BOUND);
                Message back = inbox.take(BOUND);
                back.receive(big, r);
                r.join(BOUND);
            }
            System.out.println("ok failure rank 0: send to the dead rank " + st + " after " + ms + " ms (" + doomed.failure() + "); rank 1 still served");
        } else if (e.rank() == 1) {
            for (int i = 0; i < 100; i++) {
                Message m = inbox.take(BOUND);
                m.receive(big, r);
                r.join(BOUND);
                SendRequest s = new SendRequest();
                e.send(s.to(0, i, small));
                s.join(BOUND);
            }
            System.out.println("ok failure rank 1 done");
        }
        int me = e.rank();
        e.close();
        // what follows a driver's crash in close (UCX aborting under a request to the dead rank) never prints
        System.out.println("ok failure rank " + me + " closed");
    }

    /**
     * Progress thread mode, two ranks: a send from memory of a confined arena fails at once with an
     * error that says why (the progress thread cannot reach it); a rendezvous received into such
     * memory makes the progress pass fail, which fails every peer's requests, that receive's
     * included, instead of leaving the thread dead and the waiters hanging.
     */
    private static void confined() {
        Inbox inbox = new Inbox();
        try (Engine e = Engine.init(inbox); Arena mine = Arena.ofConfined()) {
            inbox.attach(e);
            MemorySegment confined = mine.allocate(1 << 20, 4096);
            if (e.rank() == 0) {
                SendRequest refused = new SendRequest();
                e.send(refused.to(1, 7, confined));
                Status s = refused.await(BOUND);
                System.out.println("ok confined send " + s + ": " + refused.failure());
                SendRequest s2 = new SendRequest();
                e.send(s2.to(1, 8, Arena.ofAuto().allocate(1 << 20, 4096))); // a rendezvous
                System.out.println("ok confined rendezvous sent, " + (s2.await(BOUND) == Status.NOT_YET ? "not complete" : "ended"));
            } else {
                Message m = inbox.take(BOUND);
                RecvRequest r = new RecvRequest();
                m.receive(confined, r);
                Status s = r.await(BOUND);
                System.out.println("ok confined receive " + s + ": " + r.failure());
            }
        }
    }

    private static void throwing() throws InterruptedException {
        Inbox inbox = new Inbox();
        try (Engine e = Engine.init(inbox)) {
            inbox.attach(e);
            MemorySegment small = Arena.ofAuto().allocate(64);
            if (e.rank() == 1) { // one message first, so that the gate to rank 0 is in use
                SendRequest s = new SendRequest();
                e.send(s.to(0, 1, small));
                s.join(BOUND);
                throw new IllegalStateException("rank 1 fails on purpose");
            }
            if (e.rank() == 0) {
                inbox.take(BOUND);
                long start = System.nanoTime();
                for (int round = 0; inbox.failure() == null; round++) { // a second message that never comes
                    if (inbox.poll() != null) {
                        throw new IllegalStateException("a second message from rank 1");
                    }
                    if (System.nanoTime() - start > BOUND.toNanos()) {
                        throw new IllegalStateException("rank 1's departure not seen within " + BOUND);
                    }
                    dev.ferry.spi.IdleStrategy.DEFAULT.idle(System.nanoTime() - start);
                }
                System.out.println("ok throws rank 0 heard: " + inbox.failure());
                System.out.flush();
            }
            new java.util.concurrent.CountDownLatch(1).await(); // ranks 0 and 2 stay until the launcher ends the job
        }
    }
}
