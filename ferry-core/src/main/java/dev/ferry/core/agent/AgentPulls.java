package dev.ferry.core.agent;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The agents' side of a rendezvous pull between nodes (seed 001's target-initiated pull, done by
 * the agents for their ranks): the pulling rank posts a pull slot and sends a PULL record to the
 * exposing rank; that rank's agent checks it against the exposure the rank posted, reads the
 * exposed bytes straight out of the rank's memory ({@code process_vm_readv}) and sends them as
 * PULL_DATA records, which the puller's agent writes straight into the pulling rank's memory
 * ({@code process_vm_writev}). Neither rank copies a byte, nor needs to call while it happens;
 * each learns of the end from its slot's answer (and its bell). Every access is checked against
 * a slot its own rank posted: a request names an exposure only the rank it was offered to may
 * pull, within its length; arriving data lands only within a posted pull slot. Used from the
 * agent's loop alone.
 */
final class AgentPulls {
    private static final System.Logger LOG = System.getLogger(AgentPulls.class.getName());
    /** Bytes of exposed memory one PULL_DATA record carries at most. */
    static final int CHUNK = 256 * 1024;

    /** A rank of this node, as pulls see it. */
    interface Party {
        /** Its rank in the job. */
        int rank();

        PullSlots exposures();

        PullSlots pulls();

        CrossMemory memory();

        /** Whether it has left (its memory is no longer to be touched). */
        boolean left();

        /** One of its slots was answered: its bell is to ring. */
        void answered();
    }

    /** An exposure being read out for one pull. */
    static final class Serve {
        final Party from;
        final int exposure, exposureGeneration, to, pullSlot, pullGeneration;
        final long length;
        long done;
        /** The bytes of the chunk being written now. */
        long chunk;
        /**
         * The exposed bytes where the agent mapped them ({@link CrossMemory#map}), which a link
         * writes straight from; null: they are read into the record first.
         */
        java.nio.ByteBuffer data;

        Serve(Party from, int exposure, int exposureGeneration, int to, int pullSlot, int pullGeneration, long length) {
            this.from = from;
            this.exposure = exposure;
            this.exposureGeneration = exposureGeneration;
            this.to = to;
            this.pullSlot = pullSlot;
            this.pullGeneration = pullGeneration;
            this.length = length;
        }
    }

    private AgentPulls() {
    }

    /**
     * Checks the request {@code req} (a PULL record's payload) that rank {@code to} sent to
     * {@code from}: the serve to run, or null when there is nothing to send (a release, answered
     * at once). A request naming no exposure of {@code from} offered to {@code to}, or more bytes
     * than it holds, throws: the caller answers the pull FAILED.
     */
    static Serve requested(Party from, int to, MemorySegment req) {
        int pullSlot = req.get(ValueLayout.JAVA_INT, ChannelLayout.REQ_PULL_SLOT), pullGen = req.get(ValueLayout.JAVA_INT, ChannelLayout.REQ_PULL_GENERATION);
        int exposure = req.get(ValueLayout.JAVA_INT, ChannelLayout.REQ_EXPOSURE), exposureGen = req.get(ValueLayout.JAVA_INT, ChannelLayout.REQ_EXPOSURE_GENERATION);
        long length = req.get(ValueLayout.JAVA_LONG, ChannelLayout.REQ_LENGTH);
        PullSlots e = from.exposures();
        if (!PullSlots.valid(exposure) || !e.posted(exposure, exposureGen) || e.peer(exposure) != to) {
            throw new AgentException(AgentError.NOT_REGISTERED, "rank " + to + " asked to pull exposure " + exposure + " of rank " + from.rank()
                    + ", which is not one offered to it");
        }
        if (length < 0 || length > e.length(exposure)) {
            throw new AgentException(AgentError.OUT_OF_BOUNDS, "rank " + to + " asked to pull " + length + " bytes of an exposure of " + e.length(exposure)
                    + " of rank " + from.rank());
        }
        if (pullSlot < 0) { // only releases the exposure
            answerExposure(from, exposure, exposureGen, ChannelLayout.DONE);
            return null;
        }
        Serve s = new Serve(from, exposure, exposureGen, to, pullSlot, pullGen, length);
        s.data = from.memory().mappedView(e.address(exposure), length);
        return s;
    }

    /**
     * Checks a request rank {@code r} sent to rank {@code to} against {@code r}'s own pull slot:
     * posted, for that rank, of that length (a release names none). False when it is refused:
     * the pull, if it names one, is answered FAILED.
     */
    static boolean own(Party r, int to, MemorySegment req) {
        if (req.byteSize() != ChannelLayout.PULL_REQUEST_BYTES) {
            LOG.log(System.Logger.Level.WARNING, "agent: rank {0} sent a pull request of {1} bytes: dropped", r.rank(), req.byteSize());
            return false;
        }
        long pull = pullOf(req);
        if (pull < 0) {
            return true;
        }
        int slot = (int) (pull >>> 32);
        long length = req.get(ValueLayout.JAVA_LONG, ChannelLayout.REQ_LENGTH);
        PullSlots p = r.pulls();
        if (PullSlots.valid(slot) && p.posted(slot, (int) pull) && p.peer(slot) == to && p.length(slot) == length) {
            return true;
        }
        if (PullSlots.valid(slot) && p.word(slot) == PullSlots.word((int) pull, ChannelLayout.FAILED)) {
            return false; // answered already: the rank it pulls from went before the request left
        }
        LOG.log(System.Logger.Level.WARNING, "agent: rank {0} asked to pull {1} bytes from rank {2} into a slot it did not post so: refused",
                r.rank(), length, to);
        fail(r, pull);
        return false;
    }

    /**
     * Pulls between two ranks of one agent (no link between them): each serve's chunks are read
     * from one and written into the other, a chunk per pass.
     */
    static final class Local {
        private final java.util.ArrayDeque<Serve> serves = new java.util.ArrayDeque<>();
        private MemorySegment chunk;

        /** Rank {@code by} asks to pull from {@code from}, both here: a serve queued, or the pull answered FAILED. */
        void ask(Party by, Party from, MemorySegment req) {
            try {
                Serve s = requested(from, by.rank(), req);
                if (s != null) {
                    serves.add(s);
                }
            } catch (AgentException e) {
                LOG.log(System.Logger.Level.DEBUG, "agent: refused a pull: {0}", e.getMessage());
                fail(by, pullOf(req));
            }
        }

        /** Whether no serve waits: nothing for {@link #step} to move. */
        boolean idle() {
            return serves.isEmpty();
        }

        /** Moves a chunk of the first serve ({@code parties}: the node's ranks by rank); whether there was one. */
        boolean step(java.util.function.IntFunction<? extends Party> parties) {
            Serve s = serves.peek();
            if (s == null) {
                return false;
            }
            if (chunk == null) {
                chunk = java.lang.foreign.Arena.ofAuto().allocate(ChannelLayout.REC_HEADER + ChannelLayout.PULL_DATA_HEADER + CHUNK, 8);
            }
            int n = fill(s, chunk);
            Party to = parties.apply(s.to);
            if (to != null) {
                arrived(to, s.from.rank(), chunk.get(ValueLayout.JAVA_LONG, ChannelLayout.REC_MORE),
                        chunk.asSlice(ChannelLayout.REC_HEADER, n - ChannelLayout.REC_HEADER));
            }
            if (sent(s) || to == null) {
                serves.poll();
            }
            return true;
        }
    }

    /** The request's pull slot and generation, to answer a refused one: slot << 32 | generation, or -1. */
    static long pullOf(MemorySegment req) {
        int slot = req.get(ValueLayout.JAVA_INT, ChannelLayout.REQ_PULL_SLOT);
        return slot < 0 ? -1 : (long) slot << 32 | req.get(ValueLayout.JAVA_INT, ChannelLayout.REQ_PULL_GENERATION) & 0xffffffffL;
    }

    /**
     * Writes the next PULL_DATA record of {@code s} into {@code record} (a record header, the
     * data header, then up to {@link #CHUNK} bytes read from the exposing rank's memory): its
     * bytes. An exposure no longer posted, or memory that cannot be read, gives a failure record
     * (more = -1) and answers the exposure FAILED.
     */
    static int fill(Serve s, MemorySegment record) {
        long n = Math.min(CHUNK, s.length - s.done);
        long dataAt = ChannelLayout.REC_HEADER + ChannelLayout.PULL_DATA_HEADER;
        if (withdrawn(s)) {
            n = -1;
        } else {
            try {
                s.from.memory().readAt(s.from.exposures().address(s.exposure) + s.done, record.asSlice(dataAt, n));
            } catch (AgentException e) {
                failed(s, e);
                n = -1;
            }
        }
        return headers(s, record, n);
    }

    /**
     * As {@link #fill}, for a serve from mapped memory ({@link Serve#data}): the record's headers
     * alone, the chunk's bytes being {@code s.data} from its position to its limit, which the link
     * writes behind them.
     */
    static int fillMapped(Serve s, MemorySegment record) {
        long n = Math.min(CHUNK, s.length - s.done);
        if (withdrawn(s)) {
            n = -1;
        } else {
            s.data.limit((int) (s.done + n)).position((int) s.done);
        }
        headers(s, record, n);
        return (int) (ChannelLayout.REC_HEADER + ChannelLayout.PULL_DATA_HEADER);
    }

    /** Whether the exposure of {@code s} was withdrawn (or its rank left): the exposure is answered FAILED. */
    private static boolean withdrawn(Serve s) {
        if (s.from.left() || !s.from.exposures().posted(s.exposure, s.exposureGeneration)) {
            failed(s, new AgentException(AgentError.NOT_REGISTERED, "rank " + s.from.rank() + "'s exposure " + s.exposure + " is withdrawn"));
            return true;
        }
        return false;
    }

    private static void failed(Serve s, AgentException e) {
        LOG.log(System.Logger.Level.DEBUG, "agent: a pull by rank {0} from rank {1} failed: {2}", s.to, s.from.rank(), e.getMessage());
        answerExposure(s.from, s.exposure, s.exposureGeneration, ChannelLayout.FAILED);
    }

    /** A PULL_DATA record's headers for the next {@code n} bytes of {@code s} (-1: a failure record): the record's bytes. */
    private static int headers(Serve s, MemorySegment record, long n) {
        long more = n < 0 ? -1 : s.length - s.done - n;
        n = Math.max(0, n);
        long dataAt = ChannelLayout.REC_HEADER + ChannelLayout.PULL_DATA_HEADER;
        header(record, s.to, s.from.rank(), more, n);
        record.set(ValueLayout.JAVA_INT, ChannelLayout.REC_HEADER + ChannelLayout.DATA_PULL_SLOT, s.pullSlot);
        record.set(ValueLayout.JAVA_INT, ChannelLayout.REC_HEADER + ChannelLayout.DATA_PULL_GENERATION, s.pullGeneration);
        record.set(ValueLayout.JAVA_LONG, ChannelLayout.REC_HEADER + ChannelLayout.DATA_OFFSET, s.done);
        s.chunk = more < 0 ? -1 : n;
        return (int) (dataAt + n);
    }

    private static void header(MemorySegment record, int to, int from, long more, long n) {
        record.set(ValueLayout.JAVA_INT, ChannelLayout.REC_LENGTH, (int) (ChannelLayout.PULL_DATA_HEADER + n));
        record.set(ValueLayout.JAVA_INT, ChannelLayout.REC_PEER, to);
        record.set(ValueLayout.JAVA_INT, ChannelLayout.REC_KIND, ChannelLayout.PULL_DATA);
        record.set(ValueLayout.JAVA_INT, ChannelLayout.REC_ORIGIN, from);
        record.set(ValueLayout.JAVA_LONG, ChannelLayout.REC_MORE, more);
    }

    /** A failure record for the pull {@code pull} ({@link #pullOf}) of rank {@code to} from {@code from}: its bytes. */
    static int failure(MemorySegment record, int to, int from, long pull) {
        header(record, to, from, -1, 0);
        record.set(ValueLayout.JAVA_INT, ChannelLayout.REC_HEADER + ChannelLayout.DATA_PULL_SLOT, (int) (pull >>> 32));
        record.set(ValueLayout.JAVA_INT, ChannelLayout.REC_HEADER + ChannelLayout.DATA_PULL_GENERATION, (int) pull);
        record.set(ValueLayout.JAVA_LONG, ChannelLayout.REC_HEADER + ChannelLayout.DATA_OFFSET, 0);
        return (int) (ChannelLayout.REC_HEADER + ChannelLayout.PULL_DATA_HEADER);
    }

    /** The chunk {@link #fill} made is written: the exposure is answered DONE after its last. Whether the serve is over. */
    static boolean sent(Serve s) {
        if (s.chunk < 0) {
            return true;
        }
        if (s.data != null) {
            s.from.memory().linked(s.chunk);
        }
        s.done += s.chunk;
        if (s.done < s.length) {
            return false;
        }
        answerExposure(s.from, s.exposure, s.exposureGeneration, ChannelLayout.DONE);
        return true;
    }

    /** The serve will not go on (its link broke): its exposure is answered FAILED. */
    static void abandon(Serve s) {
        answerExposure(s.from, s.exposure, s.exposureGeneration, ChannelLayout.FAILED);
    }

    private static void answerExposure(Party p, int exposure, int generation, int state) {
        if (!p.left() && p.exposures().answer(exposure, generation, state)) {
            p.answered();
        }
    }

    /**
     * PULL_DATA for rank {@code to} came from {@code from}: {@code payload} is its data header and
     * bytes, {@code more} the record's more field. The bytes land in the pull slot it names,
     * checked against it; the last answers the slot DONE, a failure record FAILED. Data for a pull
     * that is over (the rank gave the slot up) is dropped.
     */
    static void arrived(Party to, int from, long more, MemorySegment payload) {
        int slot = payload.get(ValueLayout.JAVA_INT, ChannelLayout.DATA_PULL_SLOT), gen = payload.get(ValueLayout.JAVA_INT, ChannelLayout.DATA_PULL_GENERATION);
        long offset = payload.get(ValueLayout.JAVA_LONG, ChannelLayout.DATA_OFFSET);
        PullSlots p = to.pulls();
        if (to.left() || !PullSlots.valid(slot) || !p.posted(slot, gen)) {
            return;
        }
        long n = payload.byteSize() - ChannelLayout.PULL_DATA_HEADER;
        int answer = 0;
        if (more < 0) {
            answer = ChannelLayout.FAILED;
        } else if (!holds(p, slot, from, offset, n, more)) {
            LOG.log(System.Logger.Level.WARNING, "agent: rank {0} sent rank {1} {2} bytes at {3} of a pull of {4}: refused", from, to.rank(), n, offset,
                    p.length(slot));
            answer = ChannelLayout.FAILED;
        } else {
            try {
                to.memory().writeAt(p.address(slot) + offset, payload.asSlice(ChannelLayout.PULL_DATA_HEADER, n));
                if (more == 0) {
                    answer = ChannelLayout.DONE;
                }
            } catch (AgentException e) {
                answer = ChannelLayout.FAILED;
            }
        }
        if (answer != 0 && p.answer(slot, gen, answer)) {
            to.answered();
        }
    }

    /**
     * Where PULL_DATA's {@code n} bytes for rank {@code to} from {@code from} may be read from
     * the link straight into: the pull slot's memory where the agent mapped it, when the data
     * header {@code head} names a slot posted for them that holds them; null else (the record is
     * then read whole and goes to {@link #arrived}, which checks it again). {@code cache} keeps
     * the view of the last pull landed so, whose next chunk takes it again.
     */
    static java.nio.ByteBuffer landing(Party to, int from, long more, MemorySegment head, long n, Landing cache) {
        int slot = head.get(ValueLayout.JAVA_INT, ChannelLayout.DATA_PULL_SLOT), gen = head.get(ValueLayout.JAVA_INT, ChannelLayout.DATA_PULL_GENERATION);
        long offset = head.get(ValueLayout.JAVA_LONG, ChannelLayout.DATA_OFFSET);
        PullSlots p = to.pulls();
        if (more < 0 || to.left() || !PullSlots.valid(slot) || !p.posted(slot, gen) || !holds(p, slot, from, offset, n, more)) {
            return null;
        }
        if (cache.to != to || cache.slot != slot || cache.generation != gen || cache.view == null) {
            java.nio.ByteBuffer view = to.memory().mappedView(p.address(slot), p.length(slot));
            if (view == null) {
                return null;
            }
            cache.to = to;
            cache.slot = slot;
            cache.generation = gen;
            cache.view = view;
        }
        return cache.view.limit((int) (offset + n)).position((int) offset);
    }

    /** The view of the last pull whose data a link read straight into mapped memory ({@link #landing}). */
    static final class Landing {
        Party to;
        int slot = -1, generation;
        java.nio.ByteBuffer view;

        /** Forgets the view when it lies in {@code memory}'s mappings (its rank leaves). */
        void forget(CrossMemory memory) {
            if (to != null && to.memory() == memory) {
                to = null;
                view = null;
            }
        }
    }

    /**
     * The {@code n} bytes {@link #landing} placed are in: counted, and the last answers the slot
     * DONE (if it is still that pull's).
     */
    static void landed(Party to, long more, MemorySegment head, long n) {
        to.memory().linked(n);
        int slot = head.get(ValueLayout.JAVA_INT, ChannelLayout.DATA_PULL_SLOT), gen = head.get(ValueLayout.JAVA_INT, ChannelLayout.DATA_PULL_GENERATION);
        if (more == 0 && !to.left() && to.pulls().answer(slot, gen, ChannelLayout.DONE)) {
            to.answered();
        }
    }

    /**
     * Whether pull slot {@code slot} of {@code p} takes {@code n} bytes at {@code offset} from
     * rank {@code from}: its peer, within its length, and the last of them ({@code more} 0)
     * ending it.
     */
    private static boolean holds(PullSlots p, int slot, int from, long offset, long n, long more) {
        long length = p.length(slot);
        return p.peer(slot) == from && offset >= 0 && offset <= length && n <= length - offset && (more != 0 || offset + n == length);
    }

    /** Answers the pull {@code pull} ({@link #pullOf}) of a rank of this node FAILED: its request was refused or could not go. */
    static void fail(Party to, long pull) {
        if (pull >= 0 && !to.left() && PullSlots.valid((int) (pull >>> 32)) && to.pulls().answer((int) (pull >>> 32), (int) pull, ChannelLayout.FAILED)) {
            to.answered();
        }
    }
}
