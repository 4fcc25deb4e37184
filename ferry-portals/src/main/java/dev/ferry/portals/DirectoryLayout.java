package dev.ferry.portals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The layout of a process's entry directory, the one place its offsets live: a segment of the
 * local driver's shared arena in which the library publishes the leading priority-list entries
 * that same-node peers may reach directly (load, store, atomic on the entry's memory, with no
 * message and no help from this process: the way Open MPI's shared-memory one-sided mode works).
 * Little-endian; the owner writes, peers read, except the hazard words, which each peer writes
 * for itself. The node agent reads it too, as the table of kind {@link #AGENT_KIND} that the
 * owner publishes for it, and works for ranks of other nodes with their hazard words (which
 * they, never on this node, do not use themselves).
 * <pre>
 * header, at 0 ({@link #HEADER_BYTES} bytes)
 *   0   u64  magic "FERRYDIR"
 *   8   u32  version ({@link #VERSION})
 *   12  u32  open: 1 while the owner serves, 0 once it finalized
 *   16  u32  ranks: the job's size (one hazard word each)
 * list of (ni, pt), at {@link #list}(ni, pt) ({@link #LIST_BYTES} bytes each, NIS x PTS of them)
 *   0   u64  seq: even while stable, odd while the owner rewrites this list (a seqlock)
 *   8   u32  count: how many leading priority-list entries are published (at most {@link #MAX_PUBLISHED})
 *   12  u32  the slot number of each, in list order (count of them)
 * slot, at {@link #slot}(s) ({@link #SLOT_BYTES} bytes each, {@link #SLOTS} of them)
 *   0   u64  state: generation &lt;&lt; 1 | live; the other fields are written only while not live
 *   8   u64  match bits
 *   16  u64  ignore bits (all ones for a list entry: a non-matching interface matches anything)
 *   24  u32  match rank: the engine rank whose operations may match, or -1 for any
 *   28  u32  uid the entry admits, or -1 (UID_ANY)
 *   32  u32  options (the ME/LE options)
 *   36  u32  key length (at most {@link #MAX_KEY})
 *   40  u64  length of the entry's memory
 *   48  ...  the key of the entry's memory (the engine's share key, at most {@link #MAX_KEY} bytes)
 *   128 u64  the address of the entry's memory in the owner (for the node agent, which maps the
 *            owner's arena: {@link AgentEntryOffload})
 *   136 u32  the entry's counter: 1 + the index of its counter word, or 0 when it counts nothing
 *   140 u32  flags: {@link #PEERS_SKIP} when same-node peers leave the entry to the message path
 *            (a triggered operation waits on its counting event: a peer's count would not wake
 *            the owner to fire it, while the node agent's rings its bell)
 * counter word w, at {@link #counter}(w) (8 bytes each, {@link #COUNTERS} of them)
 *   0   u64  what the operations done by peers and the agent on entries counting into one
 *            counting event of the owner added to its success count ({@link #count}); the
 *            owner's count is its own part plus this
 * hazard word of engine rank r, at {@link #hazard}(r) (8 bytes each)
 *   0   u64  0, or {@link #hazardOf}(slot, state) while that peer is reading or writing the
 *            slot's memory; the owner retiring a slot waits until no word names it
 * </pre>
 *
 * <pre>{@code
 * long seq = DirectoryLayout.seq(dir, ni, pt);
 * int n = dir.get(ValueLayout.JAVA_INT, DirectoryLayout.list(ni, pt) + DirectoryLayout.LIST_COUNT);
 * }</pre>
 */
final class DirectoryLayout {
    static final long MAGIC = 0x524944595252_4546L; // "FERRYDIR" read as a little-endian u64
    static final int VERSION = 4;
    /** The kind of table the directory is for the node agent's offload ({@code DriverContext.offloadTable}). */
    static final int AGENT_KIND = 1;
    static final int NIS = 4;
    static final int PTS = 256;
    static final int SLOTS = 256;
    static final int MAX_PUBLISHED = 13;
    static final int MAX_KEY = 80;

    static final long MAGIC_OFFSET = 0, VERSION_OFFSET = 8, OPEN_OFFSET = 12, RANKS_OFFSET = 16;
    static final long HEADER_BYTES = 64;

    static final long LIST_SEQ = 0, LIST_COUNT = 8, LIST_SLOTS = 12;
    static final long LIST_BYTES = 64;
    static final long LISTS_OFFSET = HEADER_BYTES;

    static final long SLOT_STATE = 0, SLOT_MATCH_BITS = 8, SLOT_IGNORE_BITS = 16, SLOT_MATCH_RANK = 24, SLOT_UID = 28,
            SLOT_OPTIONS = 32, SLOT_KEY_LENGTH = 36, SLOT_LENGTH = 40, SLOT_KEY = 48, SLOT_ADDRESS = 128, SLOT_COUNTER = 136,
            SLOT_FLAGS = 140;
    /** A slot flag: same-node peers go by message (the node agent serves it). */
    static final int PEERS_SKIP = 1;
    static final long SLOT_BYTES = 144;
    static final long SLOTS_OFFSET = LISTS_OFFSET + NIS * PTS * LIST_BYTES;
    /** One counter word per slot at most: published entries never need more. */
    static final int COUNTERS = SLOTS;
    static final long COUNTERS_OFFSET = SLOTS_OFFSET + SLOTS * SLOT_BYTES;
    static final long HAZARDS_OFFSET = COUNTERS_OFFSET + 8L * COUNTERS;

    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private DirectoryLayout() {
    }

    /** Bytes of a directory for a job of {@code ranks}. */
    static long bytes(int ranks) {
        return HAZARDS_OFFSET + 8L * ranks;
    }

    static long list(int ni, int pt) {
        return LISTS_OFFSET + ((long) ni * PTS + pt) * LIST_BYTES;
    }

    static long slot(int s) {
        return SLOTS_OFFSET + s * SLOT_BYTES;
    }

    static long counter(int w) {
        return COUNTERS_OFFSET + 8L * w;
    }

    /**
     * Counts an operation of {@code mlength} bytes done on the entry of the slot at
     * {@code slotAt} (its options {@code options}) into the entry's counter word, if it has one:
     * 1, or the bytes with ME_EVENT_CT_BYTES. Call after the operation's bytes moved and before
     * leaving the slot: the atomic add is a full fence, so an owner that sees the count sees the
     * bytes, and the owner's retiring of the slot waits for it. True when it counted.
     */
    static boolean count(MemorySegment d, long slotAt, int options, long mlength) {
        int w = d.get(ValueLayout.JAVA_INT, slotAt + SLOT_COUNTER) - 1;
        if (w < 0 || w >= COUNTERS) {
            return false;
        }
        long unused = (long) LONG.getAndAdd(d, counter(w), (options & Portals.ME_EVENT_CT_BYTES) != 0 ? mlength : 1L);
        return true;
    }

    /**
     * Lays out {@code d} as an open directory for {@code ranks} whose list (ni, pt) publishes one
     * live entry, in slot {@code s}: matching {@code matchBits} exactly from any rank and uid,
     * with {@code options}, counting into word {@code counterWord} (-1: none), on {@code memory}
     * (its address taken as the owner's). For the agent's warm-up, and tests.
     */
    static void publishOne(MemorySegment d, int ranks, int ni, int pt, int s, long matchBits, int options, int counterWord, MemorySegment memory) {
        d.set(ValueLayout.JAVA_LONG, MAGIC_OFFSET, MAGIC);
        d.set(ValueLayout.JAVA_INT, VERSION_OFFSET, VERSION);
        d.set(ValueLayout.JAVA_INT, OPEN_OFFSET, 1);
        d.set(ValueLayout.JAVA_INT, RANKS_OFFSET, ranks);
        long list = list(ni, pt);
        d.set(ValueLayout.JAVA_LONG, list + LIST_SEQ, 2);
        d.set(ValueLayout.JAVA_INT, list + LIST_COUNT, 1);
        d.set(ValueLayout.JAVA_INT, list + LIST_SLOTS, s);
        long at = slot(s);
        d.set(ValueLayout.JAVA_LONG, at + SLOT_STATE, 3); // generation 1, live
        d.set(ValueLayout.JAVA_LONG, at + SLOT_MATCH_BITS, matchBits);
        d.set(ValueLayout.JAVA_LONG, at + SLOT_IGNORE_BITS, 0);
        d.set(ValueLayout.JAVA_INT, at + SLOT_MATCH_RANK, -1);
        d.set(ValueLayout.JAVA_INT, at + SLOT_UID, Portals.UID_ANY);
        d.set(ValueLayout.JAVA_INT, at + SLOT_OPTIONS, options);
        d.set(ValueLayout.JAVA_LONG, at + SLOT_LENGTH, memory.byteSize());
        d.set(ValueLayout.JAVA_LONG, at + SLOT_ADDRESS, memory.address());
        d.set(ValueLayout.JAVA_INT, at + SLOT_COUNTER, counterWord + 1);
    }

    static long hazard(int rank) {
        return HAZARDS_OFFSET + 8L * rank;
    }

    /** What a hazard word holds while a peer works on slot {@code s} in state {@code state} (never 0: a live state is odd). */
    static long hazardOf(int s, long state) {
        return ((long) s << 48) | (state & 0xffff_ffff_ffffL);
    }

    /** The job's size a directory says (hazard words are there for each rank). */
    static int ranks(MemorySegment d) {
        return d.get(ValueLayout.JAVA_INT, RANKS_OFFSET);
    }

    /** Whether {@code d} is a directory of this version, for a job of {@code ranks}, still open. */
    static boolean valid(MemorySegment d, int ranks) {
        return d.byteSize() >= bytes(ranks) && d.get(ValueLayout.JAVA_LONG, MAGIC_OFFSET) == MAGIC
                && d.get(ValueLayout.JAVA_INT, VERSION_OFFSET) == VERSION && d.get(ValueLayout.JAVA_INT, RANKS_OFFSET) == ranks;
    }
}
