package dev.ferry;

import dev.ferry.core.engine.Engine;
import dev.ferry.core.match.MatchEntry;
import dev.ferry.core.match.PostedReceives;
import dev.ferry.core.match.UnexpectedMessages;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.MessageHandler;
import dev.ferry.core.request.SendRequest;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * MPI's matching over the engine, for one Ferry instance: every incoming message meets the posted
 * receives (earliest accepting one wins) or waits among the unexpected ones; synchronous sends
 * learn from an ACK that a receive matched them; a dead peer fails what involves it. All its
 * state lives in the engine's thread of control: the handler runs there, and callers reach it
 * through {@link Engine#runSerialized}.
 */
final class Messaging implements MessageHandler {
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    private volatile Engine engine;
    private final PostedReceives<RecvOp> posted = new PostedReceives<>();
    private final UnexpectedMessages<Message> unexpected = new UnexpectedMessages<>();
    /**
     * Unexpected messages received since, with their entries, for the next ones to fill: a
     * message that arrives before its receive (common in collectives) allocates nothing.
     */
    private final java.util.ArrayDeque<MatchEntry<Message>> spares = new java.util.ArrayDeque<>();
    /** Spares kept at most: a burst of unexpected messages leaves no more than this behind. */
    private static final int MAX_SPARES = 64;
    /** Synchronous sends waiting for their ACK, by (peer, sync id). */
    private final Long2ObjectHashMap<SendOp> awaitingAck = new Long2ObjectHashMap<>();
    private int[] nextSyncId = new int[0];
    /** Why each peer failed, or null while it lives. */
    private String[] failed = new String[0];
    /** Peers failed so far: while none, no communicator has a dead member (checked before each small collective). */
    private volatile int failedPeers;
    /** The failed peers in the order their failures were heard of; the first {@link #failedPeers} are set. */
    private int[] failOrder = new int[0];
    /** Why each peer that closed its instance left (null while it has not), as its LEFT word said. */
    private String[] left = new String[0];
    /** Peers that left: while none, a receive or synchronous send needs no look at {@link #left}. */
    private int leftPeers;
    private static final String ACK_HINT = " (acknowledge it with Comm.ackFailed to receive from any rank again)";
    /** Revocations and agreements (ULFM). */
    final FaultTolerance faults = new FaultTolerance(this);
    /** The live communicators by context, to tell which a dead peer belongs to. */
    private final Int2ObjectHashMap<Comm> comms = new Int2ObjectHashMap<>();
    private final List<RequestFuture> futures = new ArrayList<>();
    /** Collectives in flight, advanced after every progress pass. */
    private final List<CollOp> collectives = new ArrayList<>();
    /**
     * Matching's counts (the tools interface reads them): messages a posted receive took on
     * arrival, messages kept unexpected, and receives that took a kept one. Written in the
     * engine's thread of control only, read racily.
     */
    long matchedOnArrival, arrivedUnexpected, matchedUnexpected;
    /** A request complete from the start, as a send is once its data was copied (a buffered send's). */
    private final Request sent = Request.completed(this, Status.SENT);
    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(() -> new Scratch(this));

    /** The scratch handed out last: a thread that calls again finds its own without a ThreadLocal lookup. */
    private Scratch lastScratch;

    Request sent() {
        return sent;
    }

    /** What the calling thread's blocking calls reuse. */
    Scratch scratch() {
        Scratch s = lastScratch; // one reference read: its owner is final, so never another thread's by mistake
        if (s != null && s.owner == Thread.currentThread()) {
            return s;
        }
        s = scratch.get();
        lastScratch = s;
        return s;
    }

    /** How long a blocking wait lasts before {@link #reportStall} (FERRY_STALL_REPORT); Long.MAX_VALUE: never. */
    long stallNanos = Long.MAX_VALUE;

    /**
     * A blocking wait for {@code r} has lasted {@code waited} ns: logs what it waits for and the
     * rank's state, read without the thread of control (it may be what is stuck): a snapshot.
     */
    void reportStall(Object r, long waited) {
        Engine e = engine;
        String state = e == null ? "no engine yet" : e.stateReport();
        System.Logger log = e == null ? System.getLogger("dev.ferry") : e.logger();
        log.log(System.Logger.Level.WARNING, "{0} has been waited for {1} s; posted receives {2}, unexpected messages {3}, collectives under way {4}, "
                + "messages matched on arrival {5}, kept unexpected {6}; {7}", r, waited / 1_000_000_000L, posted.size(), unexpected.size(),
                collectives.size(), matchedOnArrival, arrivedUnexpected, state);
    }

    void attach(Engine e) {
        nextSyncId = new int[e.size()];
        failed = new String[e.size()];
        failOrder = new int[e.size()];
        left = new String[e.size()];
        engine = e;
    }

    Engine engine() {
        Engine e = engine;
        if (e == null) { // a message that arrives while Ferry.init still builds the engine (thread mode)
            dev.ferry.spi.IdleStrategy.DEFAULT.await(() -> engine != null, Long.MAX_VALUE);
            e = engine;
        }
        return e;
    }

    boolean progress() {
        dev.ferry.portals.PortalsLibrary p = hosted;
        if (p != null) {
            p.touch(); // the program is active: the windows' passive-progress thread keeps out of its way
        }
        return engine().progress();
    }

    // ---- the handler ----------------------------------------------------------------------------

    /**
     * The Portals library the windows ride, hosted on this engine once the first window is made
     * (null before): its messages, peer failures and progress passes go to it.
     */
    private volatile MessageHandler library;
    private volatile dev.ferry.portals.PortalsLibrary hosted;

    void hostLibrary(dev.ferry.portals.PortalsLibrary p) {
        hosted = p;
        library = p == null ? null : p.handler();
    }

    /** Why the failed ranks failed, or null when none did. */
    String failures() {
        StringBuilder b = new StringBuilder();
        for (String f : failed) {
            if (f != null) {
                b.append(b.isEmpty() ? "" : "; ").append(f);
            }
        }
        return b.isEmpty() ? null : b.toString();
    }

    @Override
    public void onMessage(Message m) {
        long h = m.header();
        if (dev.ferry.portals.PortalsLibrary.isLibraryMessage(h)) {
            MessageHandler l = library;
            if (l != null) {
                l.onMessage(m);
            } else {
                engine().logger().log(System.Logger.Level.WARNING, "rank {0}: a window message from rank {1} came before any window was made here: dropped",
                        engine().rank(), m.source());
            }
            return;
        }
        int kind = Envelope.kind(h);
        if (kind == Envelope.FAULT) {
            faults.onMessage(m);
            return;
        }
        if (kind == Envelope.ACK) {
            SendOp s = awaitingAck.remove(syncKey(m.source(), Envelope.tag(h)));
            if (s != null) {
                s.acked = true;
                s.wake();
            }
            return; // an ACK has no bytes: letting it go gives its credit back
        }
        int context = Envelope.context(h);
        int tag = Envelope.tag(h);
        if (faults.dropsContext(context)) {
            m.drop(); // its communicator is revoked: ULFM discards what arrives on it
            return;
        }
        MatchEntry<RecvOp> e = posted.match(context, m.source(), tag, reclaimed);
        if (e != null) {
            matchedOnArrival++;
            e.item().deliver(m);
        } else {
            arrivedUnexpected++;
            MatchEntry<Message> spare = m.isRendezvous() ? null : spares.poll();
            Message k = m.keep(spare == null ? null : spare.item());
            unexpected.add((spare != null && k == spare.item() ? spare : new MatchEntry<>(k)).set(context, m.source(), tag));
        }
    }

    @Override
    public void onPeerFailed(int rank, dev.ferry.spi.Status status, String why) {
        String reason = "rank " + rank + " of the job failed (" + status + (why == null || why.isEmpty() ? "" : ": " + why) + ")";
        if (failed[rank] == null) {
            FerryEvents.peerFailure(engine().rank(), rank, reason);
            failed[rank] = reason;
            failOrder[failedPeers] = rank;
            failedPeers++; // the engine's thread of control alone writes it, after the order it publishes
        }
        // a receive from this rank fails; one from any rank may still be matched by another's message: ULFM's PENDING
        posted.removeFor(rank, context -> {
            Comm c = comms.get(context);
            return c != null && c.local(rank) >= 0;
        }, e -> e.item().finish(Status.failed(Ferry.ANY_SOURCE, Ferry.ANY_TAG,
                e.source() == MatchEntry.ANY ? ErrorClass.PROC_FAILED_PENDING : ErrorClass.PROC_FAILED,
                e.item() + ": " + reason + (e.source() == MatchEntry.ANY ? ACK_HINT : ""))));
        // a collective needs every member, if not directly then through others: all on its communicators fail
        collectives.removeIf(op -> {
            if (op.comm().local(rank) >= 0) {
                op.memberFailed(reason);
                return true;
            }
            return false;
        });
        failAwaitingAck(s -> s.destWorld == rank, ErrorClass.PROC_FAILED, reason);
        faults.peerFailed(rank);
        MessageHandler l = library;
        if (l != null) {
            l.onPeerFailed(rank, status, why);
        }
    }

    @Override
    public boolean onProgress() {
        boolean work = !collectives.isEmpty() && advanceCollectives();
        MessageHandler l = library;
        if (l != null) {
            work |= l.onProgress();
        }
        if (futures.isEmpty()) {
            return work;
        }
        return futures.removeIf(RequestFuture::settle) | work;
    }

    /**
     * Advances the collectives in flight and drops those finished; whether any finished. By hand,
     * not {@code removeIf}, which allocates a bit set each time it removes one: a persistent
     * collective's start allocates nothing. A collective started by another's step joins the end
     * meanwhile and is kept.
     */
    private boolean advanceCollectives() {
        int n = collectives.size();
        int kept = 0;
        for (int i = 0; i < n; i++) {
            CollOp op = collectives.get(i);
            if (!op.advance()) {
                collectives.set(kept++, op);
            }
        }
        if (kept == n) {
            return false;
        }
        int added = collectives.size() - n;
        for (int j = 0; j < added; j++) {
            collectives.set(kept + j, collectives.get(n + j));
        }
        for (int i = collectives.size() - 1; i >= kept + added; i--) {
            collectives.remove(i); // the last one: no copy, no allocation
        }
        return true;
    }

    /** Starts a collective: its first rounds run now, the rest as progress finds their transfers done. */
    void start(CollOp op) {
        engine().runSerialized(op.starter);
    }

    /** {@link #start}'s step in the engine's thread of control. */
    void begin(CollOp op) {
        String dead = deadMember(op.comm());
        if (dead != null) {
            op.memberFailed(dead);
        } else if (!op.advance()) {
            collectives.add(op);
        }
    }

    // ---- what callers run in the engine's thread of control -------------------------------------

    /** A receive is posted: it takes the earliest unexpected message it accepts, else waits. */
    void post(RecvOp r) {
        int context = r.context;
        MatchEntry<Message> u = unexpected.take(context, r.sourceWorld, r.tag);
        if (u != null) {
            matchedUnexpected++;
            r.deliver(u.item());
            if (u.item().reusable() && spares.size() < MAX_SPARES) {
                spares.push(u); // received and its credits back: the next unexpected message fills it
            }
            return;
        }
        String dead = r.sourceWorld >= 0 ? failed[r.sourceWorld] : null;
        if (dead == null && leftPeers != 0 && r.sourceWorld >= 0 && !isGoodbye(r.context, r.tag)) {
            dead = left[r.sourceWorld]; // it sent all it will: nothing here now, nothing later
        }
        if (dead != null) {
            r.finish(Status.failed(r.comm.local(r.sourceWorld), r.tag, ErrorClass.PROC_FAILED, r + ": " + dead));
            return;
        }
        if (r.sourceWorld == MatchEntry.ANY && failedPeers != 0 && r.context == r.comm.context) {
            String unacknowledged = r.comm.unacknowledgedFailure();
            if (unacknowledged != null) {
                r.finish(Status.failed(Ferry.ANY_SOURCE, r.tag, ErrorClass.PROC_FAILED_PENDING, r + " on " + r.comm + ": " + unacknowledged + ACK_HINT));
                return;
            }
        }
        // alone: no receive posted before it accepts a message it does, so the agent may match it
        boolean anyTag = r.tag == MatchEntry.ANY, anySource = r.sourceWorld == MatchEntry.ANY;
        // (a derived layout too: the agent stages what it cannot place, and the rank scatters it once)
        long room = r.into != null ? r.into.byteSize() : r.layout.size();
        boolean alone = (anySource ? engine.offloadsAnySource(room) : engine.offloads(r.sourceWorld, room)) && !posted.overlaps(context, r.sourceWorld, r.tag);
        posted.add(r.entry.set(context, r.sourceWorld, r.tag));
        if (alone) {
            long bits = Envelope.header(context, anyTag ? 0 : r.tag, Envelope.STANDARD, 0);
            long ignore = anyTag ? Envelope.MATCH_IGNORE | Envelope.TAG_BITS : Envelope.MATCH_IGNORE;
            dev.ferry.spi.DataLayout into = r.into != null ? r.engineRecv.into(r.into).layout() : r.layout; // the request's own layout: no allocation
            if (anySource) {
                engine().offloadAnySource(r.engineRecv, into, bits, ignore, r);
            } else {
                engine().offload(r.engineRecv, r.sourceWorld, into, bits, ignore, r);
            }
        }
    }

    /**
     * Matching a message to a receive handed to the node agent takes it back first: a receive
     * the agent matched already is passed over (its message is on its way into it).
     */
    private final dev.ferry.core.match.Eligibility<RecvOp> reclaimed = op -> op.engineRecv.armedBy < 0 || engine.reclaim(op.engineRecv);

    /** The agent matched {@code r} and placed its message (engine's thread of control). */
    void matchedByAgent(RecvOp r) {
        if (posted.remove(r.entry)) {
            matchedOnArrival++;
        }
    }

    /** Takes {@code r} back from the agent if it was handed there: false when the agent matched it already. */
    boolean reclaim(RecvOp r) {
        return engine().reclaim(r.engineRecv);
    }

    boolean unpost(RecvOp r) {
        return reclaim(r) && posted.remove(r.entry);
    }

    /** The earliest unexpected message of {@code context} a probe accepts, left in place; or null. */
    Message peek(int context, int sourceWorld, int tag) {
        MatchEntry<Message> u = unexpected.find(context, sourceWorld, tag);
        return u == null ? null : u.item();
    }

    /** {@link #peek}, taking it out of the queue (a matched probe). */
    Message take(int context, int sourceWorld, int tag) {
        MatchEntry<Message> u = unexpected.take(context, sourceWorld, tag);
        return u == null ? null : u.item();
    }

    /** Starts a synchronous send: an id its ACK will name, then the send. */
    void startSynchronous(SendOp s, long headerWithoutId, Object data) {
        String dead = failed[s.destWorld];
        if (dead == null && leftPeers != 0) {
            dead = left[s.destWorld]; // a rank that left matches nothing
        }
        if (dead != null) {
            s.finish(Status.failed(s.dest, s.tag, ErrorClass.PROC_FAILED, s + ": " + dead));
            return;
        }
        int id = -1;
        for (int i = 0; i < Envelope.SYNC_IDS; i++) {
            int candidate = nextSyncId[s.destWorld]++ & (Envelope.SYNC_IDS - 1);
            if (!awaitingAck.containsKey(syncKey(s.destWorld, candidate))) {
                id = candidate;
                break;
            }
        }
        if (id < 0) {
            s.finish(Status.failed(s.dest, s.tag, ErrorClass.NO_SPACE, s + ": " + Envelope.SYNC_IDS
                    + " synchronous sends to this rank are pending already"));
            return;
        }
        awaitingAck.put(syncKey(s.destWorld, id), s);
        long header = headerWithoutId | (long) id << Envelope.SYNC_ID_SHIFT;
        if (data instanceof MemorySegment m) {
            engine.send(s.engineSend.to(s.destWorld, header, m));
        } else {
            engine.send(s.engineSend.to(s.destWorld, header, (dev.ferry.spi.DataLayout) data));
        }
    }

    /** Tells a synchronous sender that a receive matched its message. */
    void ack(int peer, int syncId) {
        engine.send(new SendRequest().to(peer, Envelope.header(0, syncId, Envelope.ACK, 0), EMPTY).handledOnArrival());
    }

    void watch(RequestFuture f) {
        engine().runSerialized(() -> {
            if (!f.settle()) {
                futures.add(f);
            }
        });
    }

    void register(Comm c) {
        engine().runSerialized(() -> {
            comms.put(c.context, c);
            if (faults.isRevoked(c.context)) {
                c.markRevoked(); // a member revoked it before it was made here
            }
        });
    }

    /** The live communicator of user context {@code context}, or null (engine's thread of control). */
    Comm comm(int context) {
        return comms.get(context);
    }

    /**
     * {@code c} was revoked (engine's thread of control): its posted receives, collectives and
     * synchronous sends waiting for their ACK fail with REVOKED, and what arrived unreceived goes.
     */
    void failRevoked(Comm c) {
        String why = c + " was revoked";
        for (int ctx : new int[] {c.context, c.context + 1}) {
            posted.removeContext(ctx, e -> e.item().finish(Status.failed(Ferry.ANY_SOURCE, Ferry.ANY_TAG, ErrorClass.REVOKED, e.item() + ": " + why)));
            unexpected.removeContext(ctx, e -> e.item().drop());
        }
        collectives.removeIf(op -> {
            if (op.comm() == c) {
                op.fail(ErrorClass.REVOKED, why);
                return true;
            }
            return false;
        });
        failAwaitingAck(s -> s.comm == c, ErrorClass.REVOKED, why);
    }

    /** Fails the synchronous sends awaiting their ACK that {@code which} accepts. */
    private void failAwaitingAck(java.util.function.Predicate<SendOp> which, ErrorClass error, String why) {
        List<Long> gone = new ArrayList<>();
        awaitingAck.forEachLong((key, s) -> {
            if (which.test(s)) {
                gone.add(key);
            }
        });
        for (long key : gone) {
            SendOp s = awaitingAck.remove(key);
            s.finish(Status.failed(s.dest, s.tag, error, s + ": " + why));
        }
    }

    /**
     * Rank {@code rank} closed its instance (its LEFT word, after all it sent here): a posted
     * receive from it can never match now, nor can a synchronous send to it be matched, so they
     * fail at once; the goodbyes of close are left to run. Its connection stays (engine's thread
     * of control).
     */
    void peerLeft(int rank, String cause) {
        String why = "rank " + rank + " of the job closed its Ferry instance (finalized) and will send nothing more"
                + (cause == null ? "" : "; before that it had seen: " + cause);
        if (left[rank] == null) {
            leftPeers++;
        }
        left[rank] = why;
        List<MatchEntry<RecvOp>> goodbyes = new ArrayList<>();
        posted.removeFor(rank, context -> false, e -> {
            if (isGoodbye(e.context(), e.tag())) {
                goodbyes.add(e);
            } else {
                e.item().finish(Status.failed(e.item().comm.local(rank), e.tag(), ErrorClass.PROC_FAILED, e.item() + ": " + why));
            }
        });
        goodbyes.forEach(posted::add); // posted again: they still match its goodbye
        failAwaitingAck(s -> s.destWorld == rank, ErrorClass.PROC_FAILED, why);
    }

    /** The close's goodbye exchange (the world's internal context), which runs on after a peer's LEFT. */
    private static boolean isGoodbye(int context, int tag) {
        return context == 2 * ContextIds.WORLD + 1 && tag == Ferry.GOODBYE_TAG;
    }

    /** The first failure this rank heard of (a peer's death, or a peer that left), or null. */
    String firstFailure() {
        if (failedPeers > 0) {
            return failed[failOrder[0]];
        }
        for (String l : left) {
            if (l != null) {
                return l;
            }
        }
        return null;
    }

    /** The job ranks failed so far, in the order their failures were heard of (any thread). */
    int[] failedInOrder() {
        int n = failedPeers; // read first: the order's entries below it are published
        return java.util.Arrays.copyOf(failOrder, n);
    }

    /** A communicator is freed: it leaves the registry, and messages nobody received on it go. */
    void unregister(Comm c) {
        engine().runSerialized(() -> {
            comms.remove(c.context);
            unexpected.removeContext(c.context, e -> e.item().drop());
            faults.forget(c.context);
        });
    }

    /** Why a member of {@code c} failed, or null while all live. */
    String deadMember(Comm c) {
        if (failedPeers == 0) {
            return null;
        }
        for (int i = 0; i < c.peerCount(); i++) {
            String why = failed[c.world(i)];
            if (why != null) {
                return why;
            }
        }
        return null;
    }

    /** Why a peer failed, or null. */
    String failure(int worldRank) {
        return failed[worldRank];
    }

    int unexpectedCount() {
        return unexpected.size();
    }

    private static long syncKey(int peer, int id) {
        return (long) peer << 32 | id;
    }
}
