package dev.ferry.portals;

import dev.ferry.core.engine.Engine;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.MessageHandler;
import dev.ferry.spi.Status;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static dev.ferry.portals.Portals.*;

/**
 * The library side of Portals (seed 003's LIB): the state of every interface, and the two entry
 * points into it: the API's calls, through {@link Dispatch}, and incoming messages, through
 * {@link #onMessage} (seed 003's lib_parse; the engine is the NAL), which hands requests to the
 * target side ({@link Target}) and answers to the initiator side ({@link Initiator}). Runs in one thread of control
 * at a time (the dispatch sees to it), so nothing here locks.
 *
 * <p>Operations: a put, atomic, fetch-atomic or swap carries header, operand and data in one
 * message when they fit the engine's eager limit; larger puts send the header first and the
 * data as a message of its own, which the target, having matched the header, receives straight
 * into the matched entry (the engine pulls it: target-initiated, seed 001). A get's reply works
 * the same way the other direction: the initiator pulls the data from the target's entry.
 */
final class Library implements MessageHandler {
    /** Where this library reports: its configuration's logger (through its engine). */
    final System.Logger log;
    /** Engine eager limits below this leave no room for the library's header and a useful payload. */
    static final long MIN_EAGER = 512;

    final Engine engine;
    /** The engine is a host's ({@link PortalsLibrary#host}): not ours to close. */
    final boolean hosted;
    final Dispatch dispatch;
    final int rank;
    final int size;
    final int uid;
    /** Node index of every engine rank (the physical nid), by order of first appearance. */
    final int[] nid;
    final Ni[] nis = new Ni[4];
    /** The lists of the portal table entries: appending, matching, unexpected headers, searches. */
    final MatchLists lists;
    /** The interfaces and the objects bound to them. */
    final Interfaces interfaces;
    /** The operations this process started. */
    final Initiator initiator;
    /** The entries this process publishes for same-node peers to reach directly. */
    final Directory directory;
    /** Operations this process does directly on same-node peers' published entries. */
    final DirectAccess direct;
    /** An 8-byte scratch word for atomics done with compare-and-swap, here and by {@link DirectAccess} (one thread at a time). */
    final MemorySegment atomicScratch = Arena.ofAuto().allocate(8, 8);
    /** Inline messages: their buffers and send requests, reused. */
    final InlineSender sender;
    /** The header of the message being handled, copied out of the packet (the library runs in one thread at a time). */
    private final MemorySegment header = Arena.ofAuto().allocate(PtlWire.HEADER, 8);
    /** The largest payload (operand + data) one message carries to any peer. */
    final long inlineMax;
    final long atomicMax;

    /** The target side: requests that arrive, their data, their answers. */
    final Target target = new Target(this);
    final boolean[] failedRank;
    /** Barriers and the fini meeting. */
    final Barriers barriers;
    private volatile String failure;

    Library(PortalsConfig config, MessageHandlerSlot slot) {
        this(Engine.init(config.engine(), slot), slot);
    }

    /**
     * A library on {@code engine}: its own (from {@link PortalsLibrary#open}, {@code slot} its
     * handler) or a host's ({@code slot} null: the host routes the library's messages here and
     * keeps the engine).
     */
    Library(Engine engine, MessageHandlerSlot slot) {
        this.engine = engine;
        this.hosted = slot == null;
        this.log = engine.logger();
        try {
            boolean passive = PortalsSettings.passiveProgress(engine.settings());
            this.dispatch = hosted ? Dispatch.hosted(engine, passive) : Dispatch.of(engine, passive);
            this.rank = engine.rank();
            this.size = engine.size();
            this.uid = currentUid();
            this.nid = new int[size];
            Map<String, Integer> nodes = new HashMap<>();
            for (int r = 0; r < size; r++) {
                nid[r] = nodes.computeIfAbsent(engine.node(r), k -> nodes.size());
            }
            long eager = Long.MAX_VALUE;
            for (int r = 0; r < size; r++) {
                eager = Math.min(eager, engine.eagerLimit(r));
            }
            if (eager < MIN_EAGER) {
                throw new PtlException(ReturnCode.FAIL, "the engine's eager limit is " + eager + " bytes; the Portals library needs at least "
                        + MIN_EAGER + " (raise FERRY_EAGER_LIMIT)");
            }
            this.inlineMax = Math.min(eager, 64 * 1024) - PtlWire.HEADER;
            this.atomicMax = Math.min(4096, (inlineMax - PtlWire.MAX_OPERAND) & ~31L);
            this.failedRank = new boolean[size];
            this.directory = new Directory(this);
            this.direct = new DirectAccess(this, PortalsSettings.direct(engine.settings()));
            this.lists = new MatchLists(engine, directory);
            this.interfaces = new Interfaces(this);
            this.sender = new InlineSender(engine, PtlWire.HEADER + inlineMax);
            this.initiator = new Initiator(this);
            this.barriers = new Barriers(rank, size, failedRank, this::barrierMessage);
        } catch (RuntimeException e) {
            if (!hosted) {
                slot.abandon();
                engine.close();
            }
            throw e;
        }
        if (!hosted) {
            slot.publish(this);
        }
        dispatch.start();
    }

    /**
     * The engine needs its handler before the library exists, and with FERRY_PROGRESS=thread its
     * progress thread runs from then on: this forwards to the library once it is fully built. A
     * message that arrives earlier (a fast peer) waits for it here, on the progress thread.
     */
    static final class MessageHandlerSlot implements MessageHandler {
        private volatile Library target;
        private volatile boolean abandoned;

        void publish(Library lib) {
            target = lib;
        }

        /** The library failed to start: nothing will be published, messages are dropped. */
        void abandon() {
            abandoned = true;
        }

        private Library await() {
            Library t = target;
            if (t == null) { // a message that arrives while the library is still being built
                dev.ferry.spi.IdleStrategy.DEFAULT.await(() -> target != null || abandoned, Long.MAX_VALUE);
                t = target;
            }
            return t;
        }

        @Override
        public void onMessage(Message m) {
            Library t = await();
            if (t != null) {
                t.onMessage(m);
            }
        }

        @Override
        public void onPeerFailed(int rank, Status status, String why) {
            Library t = await();
            if (t != null) {
                t.onPeerFailed(rank, status, why);
            }
        }

        @Override
        public boolean onProgress() {
            Library t = target;
            return t != null && t.onProgress(); // nothing of the library's is in motion before it exists
        }
    }

    private static int currentUid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (Exception e) {
            return 0;
        }
    }

    static PtlException invalid(String what) {
        return new PtlException(ReturnCode.ARG_INVALID, what);
    }

    /** Engine rank of a target on {@code ni}; ARG_INVALID when there is no such process. */
    int engineRank(Ni ni, ProcessId id) {
        if (id == null) {
            throw invalid("target_id is null");
        }
        if (ni.logical) {
            if (id.rank < 0 || id.rank >= ni.rankToEngine.length) {
                throw invalid("rank " + Integer.toUnsignedString(id.rank) + " is outside the map (size " + ni.rankToEngine.length + ")");
            }
            return ni.rankToEngine[id.rank];
        }
        int pid = id.phys.pid;
        if (pid < 0 || pid >= size || nid[pid] != id.phys.nid) {
            throw invalid("no process " + id.phys + " in this job");
        }
        return pid;
    }

    ProcessId idOf(Ni ni, int engineRank) {
        ProcessId p = ProcessId.ofPhys(nid[engineRank], engineRank);
        p.rank = ni.logical ? ni.engineToRank[engineRank] : engineRank;
        return p;
    }

    // =========================================================================================
    // Initiator: starting operations
    // =========================================================================================

    // =========================================================================================
    // Incoming (seed 003's lib_parse)
    // =========================================================================================

    @Override
    public void onMessage(Message m) {
        if ((m.header() & PtlWire.DATA) != 0) {
            if (!target.data(m) && !initiator.replyData(m, m.header() & PtlWire.ID_MASK)) {
                log.log(System.Logger.Level.WARNING, "rank {0}: data for operation {1} from rank {2}, which nobody waits for: dropped",
                        rank, m.header() & PtlWire.ID_MASK, m.source());
                m.drop();
            }
            return;
        }
        if (m.isRendezvous()) {
            log.log(System.Logger.Level.WARNING, "rank {0}: a library header from rank {1} came by rendezvous ({2} bytes): dropped", rank, m.source(), m.length());
            return;
        }
        long n = m.length();
        if (n < PtlWire.HEADER) {
            log.log(System.Logger.Level.WARNING, "rank {0}: a {1}-byte message from rank {2} is too short for a library header: dropped", rank, n, m.source());
            return;
        }
        // the header is copied (64 bytes, into memory of our own); operands and data are read where
        // they lie: no view is allocated per message
        MemorySegment buf = m.buffer();
        long at = m.offset();
        MemorySegment p = header;
        MemorySegment.copy(buf, at, p, 0, PtlWire.HEADER);
        int src = m.source();
        switch (PtlWire.type(p)) {
            case PtlWire.PUT, PtlWire.ATOMIC, PtlWire.GET, PtlWire.FETCH, PtlWire.SWAP -> target.request(src, p, buf, at, n);
            case PtlWire.ACK -> initiator.ack(p);
            case PtlWire.REPLY -> initiator.reply(p, buf, at, n);
            case PtlWire.DIR_REQ -> directory.answer(src);
            case PtlWire.DIR_KEY -> direct.directoryKey(src, buf, at + PtlWire.HEADER, Math.min(PtlWire.length(p), n - PtlWire.HEADER));
            case PtlWire.BARRIER -> barriers.arrived(src, PtlWire.hdrData(p));
            case PtlWire.RELEASE -> barriers.released(PtlWire.hdrData(p), PtlWire.offset(p));
            default -> log.log(System.Logger.Level.WARNING, "rank {0}: unknown library message type {1} from rank {2}: dropped", rank, PtlWire.type(p), src);
        }
    }

    /** A header whose fields name nothing the library knows, or lengths its message does not hold: a protocol error, dropped. */
    void malformed(MemorySegment p, String what) {
        log.log(System.Logger.Level.WARNING, "{0} is malformed (an unknown code, or a length the message does not hold; op {1}, datatype {2}, fail {3}, list {4}): dropped",
                what, PtlWire.op(p), PtlWire.datatype(p), PtlWire.fail(p), PtlWire.list(p));
    }

    // =========================================================================================
    // Progress: completions the library waits for
    // =========================================================================================

    @Override
    public boolean onProgress() {
        boolean work = false;
        work |= sender.progress();
        work |= initiator.progress();
        work |= target.progress();
        work |= directory.fireCounted();
        return work;
    }

    @Override
    public void onPeerFailed(int peer, Status status, String why) {
        failedRank[peer] = true;
        barriers.peerFailed(); // a dead rank no longer holds a barrier or fini up
        failure = "rank " + peer + " failed: " + why;
        log.log(System.Logger.Level.WARNING, "rank {0}: {1}; its operations fail with NI_UNDELIVERABLE", rank, failure);
        direct.peerFailed(peer);
        initiator.peerFailed(peer);
        target.peerFailed(peer);
    }

    /** Sends a BARRIER or RELEASE ({@link Barriers}). */
    private void barrierMessage(int to, byte type, long epoch, long detail) {
        InlineSender.Outgoing out = sender.takeHeader();
        PtlWire.request(out.buf, type, 0, 0, 0, 0, 0, 0, uid, 0, detail, epoch, 0, 0, 0);
        sender.send(to, out, PtlWire.HEADER);
    }

    String failure() {
        return failure;
    }

    boolean quiet() {
        return sender.quiet() && initiator.quiet() && target.quiet();
    }
}
