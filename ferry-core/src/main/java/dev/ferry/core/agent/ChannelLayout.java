package dev.ferry.core.agent;

/**
 * The memory a rank shares with its node's agent (one file per rank, mapped by both): a header,
 * then the command ring, seed 003's {@code forward} made of memory. The one place that names
 * each field's offset and size.
 * <pre>
 *   header (64 bytes)
 *     +0   u32  magic 'FAGT'
 *     +4   u32  version
 *     +8   u32  slots (a power of two)
 *     +12  u32  bytes per slot
 *     +16  u64  the rank's pid
 *     +24  u64  the agent's pid
 *     +32  u64  the agent's beat: its dispatch loop counts up, so a rank sees it live
 *     +40  u32  closed: the agent's word that it has gone (1)
 *     +44  u32  bytes of each packet ring's data (a power of two; 0: the channel has none)
 *     +48  u32  the rank sleeps: 1 while a wait of the rank may sleep on the bell (the rank writes it)
 *     +52  u32  bell: the agent counts it up after it put records in the IN ring, and wakes the
 *               rank (futex) when it sleeps
 *     +56  u32  the agent sleeps: 1 while the agent waits for events (the agent writes it); a
 *               rank that posts work then takes it back to 0 and writes a byte to the agent's
 *               bell socket ({@link AgentBell}), which ends the wait
 *     +60  u32  the rank waits for room: 1 once the rank found its OUT ring full (the rank writes
 *               it, then looks again); the agent, having made room, takes it back to 0 and rings
 *               the bell, so that a send that sleeps on a full ring goes on at once
 *   +64   u64  head: the next command's position (ranks' threads take it by compare-and-set)
 *   +128  u64  tail: the next position the agent dispatches (the agent alone writes it)
 *   +192  counters: {@link #COUNTERS} of 16 bytes, which the agent writes and the rank polls
 *         where it is (seed 003's events, Portals' counting events):
 *     +0   u64  bytes done: the agent adds each finished operation's bytes (release)
 *     +8   i64  error: 0, or the first failed operation's {@link AgentError} code
 *   +704  slots, each {@code slot bytes}:
 *     +0   u64  sequence: position p's slot is free at p, posted at p + 1, done at p + 2,
 *                free again for the next lap at p + slots (Vyukov's bounded queue, the
 *                consumer's release deferred to the rank that reads the answer)
 *     +8   u32  call index
 *     +12  i32  status: 0, or an {@link AgentError}'s negative code
 *     +16  u32  argument bytes
 *     +20  u32  return bytes
 *     +32  the argument block (rank to agent), then in its place the return block (agent to rank)
 *   then two packet rings ({@link ByteRing}): OUT, the packets the rank sends (rank writes, agent
 *   reads), and IN, the packets that came for it (agent writes, rank reads); each:
 *     +0   u64  produced: bytes written so far (the producer alone writes it, release)
 *     +64  u64  consumed: bytes read so far (the consumer alone writes it, release)
 *     +128 data, a power of two of bytes, holding records that start on 8-byte boundaries:
 *       +0   u32  payload bytes
 *       +4   u32  peer: in OUT the rank the packet goes to, in IN the rank it came from
 *       +8   u32  kind: {@link #PACKET}, {@link #HELLO}, {@link #GONE}, {@link #PAD}
 *       +12  u32  origin: the sending rank (the agent writes it; a rank cannot name another)
 *       +16  u64  more: bytes of the same packet still to come in later records (0: the last)
 *       +24  payload
 *     A record never wraps: one that would not fit before the data's end is written at its
 *     start, after a PAD record (or, with fewer than 24 bytes left, after nothing).
 *   then the exposure slots ({@link #PULL_SLOTS}), the memory the rank offers a peer to pull
 *   (its {@code sendExpose}), and the pull slots ({@link #PULL_SLOTS}), the memory it asked the
 *   agent to pull into (its {@code pullPost}); each slot {@link #PULL_SLOT_BYTES} bytes:
 *     +0   u32  state: {@link #FREE}, {@link #POSTED} (the rank writes it, release, after the
 *               rest), {@link #DONE} or {@link #FAILED} (the agent writes it, release)
 *     +4   u32  generation: the rank counts it up at each use, so a late answer to an old use
 *               changes nothing
 *     +8   u64  address, in the rank's process
 *     +16  u64  length
 *     +24  u32  peer: the one rank allowed to pull an exposure; the rank a pull is from
 *     +28  u32  placed: of a pull slot the agent claimed for a message it matched, 1 when it
 *               wrote the message at the match (an eager one), 0 when it pulls the bytes
 *   A rank's pull data, what its RTS carries for the peer to pull with ({@link #PULL_DATA_BYTES}):
 *     +0   u32  exposure slot
 *     +4   u32  its generation
 *     +8   u64  bytes exposed
 *   A pull's request goes in the OUT ring as a {@link #PULL} record to the exposing rank, its
 *   payload {@link #PULL_REQUEST_BYTES} bytes:
 *     +0   i32  pull slot (-1: pull nothing, only release the exposure)
 *     +4   u32  the pull slot's generation
 *     +8   u32  exposure slot, in the exposing rank's channel
 *     +12  u32  the exposure slot's generation
 *     +16  u64  bytes to pull
 *   and the data comes back between agents as {@link #PULL_DATA} records, their payload a
 *   {@link #PULL_DATA_HEADER}-byte header and the bytes:
 *     +0   u32  pull slot
 *     +4   u32  its generation
 *     +8   u64  offset of these bytes in the pull
 *   with the record's more field the bytes still to come (0: the last; -1: the pull failed).
 * </pre>
 * Head, tail and the slots start on separate cache lines so that the rank's and the agent's
 * writes do not share one.
 */
public final class ChannelLayout {
    public static final int MAGIC = 0x46414754; // "FAGT"
    public static final int VERSION = 8;

    public static final long MAGIC_AT = 0, VERSION_AT = 4, SLOTS_AT = 8, SLOT_BYTES_AT = 12, RANK_PID = 16, AGENT_PID = 24, AGENT_BEAT = 32,
            CLOSED = 40, RING_BYTES_AT = 44, RANK_SLEEPS = 48, BELL = 52, AGENT_SLEEPS = 56, OUT_WAITS = 60;
    public static final long HEAD = 64, TAIL = 128, COUNTERS_START = 192, SLOTS_START = 704;
    /** Counters per channel, and a counter's fields. */
    public static final int COUNTERS = 32;
    public static final long COUNTER_BYTES = 16, COUNTER_DONE = 0, COUNTER_ERROR = 8;

    public static final long SEQUENCE = 0, CALL = 8, STATUS = 12, ARG_BYTES = 16, RET_BYTES = 20, PAYLOAD = 32;

    /** A packet ring's fields, from its start. */
    public static final long PRODUCED = 0, CONSUMED = 64, RING_DATA = 128;
    /** A record's fields, from its start, and its header's size. */
    public static final long REC_LENGTH = 0, REC_PEER = 4, REC_KIND = 8, REC_ORIGIN = 12, REC_MORE = 16, REC_HEADER = 24;
    /**
     * Record kinds: part of a packet; a sender's URL, before its first packet; the peer is gone;
     * filler to the data's end; a pull's request; a pull's data (between agents only); a step of
     * a link's close handshake (between agents only, the step in the peer field).
     */
    public static final int PACKET = 1, HELLO = 2, GONE = 3, PAD = 4, PULL = 5, PULL_DATA = 6, CLOSE = 7;
    /** The steps of a link's close handshake. */
    public static final int CLOSE_ASK = 1, CLOSE_AGREE = 2, CLOSE_REFUSE = 3;
    /** Exposure slots, and pull slots, per channel; a slot's bytes and fields; slot states. */
    public static final int PULL_SLOTS = 128;
    public static final long PULL_SLOT_BYTES = 32, SLOT_STATE = 0, SLOT_GENERATION = 4, SLOT_ADDRESS = 8, SLOT_LENGTH = 16, SLOT_PEER = 24, SLOT_PLACED = 28;
    public static final int FREE = 0, POSTED = 1, DONE = 2, FAILED = 3, ARMED = 4, CLAIMED = 5;
    /** The peer field of a pull slot armed for a message from any peer; the agent's claim writes the real one. */
    public static final int ANY_PEER = -1;
    /** A pull slot's match fields: their bytes and offsets. */
    public static final long MATCH_BYTES = 32, MATCH_BITS = 0, MATCH_IGNORE = 8, MATCH_HEADER = 16, MATCH_LENGTH = 24;
    /** A rank's pull data: its bytes and fields. */
    public static final int PULL_DATA_BYTES = 16;
    public static final long PD_EXPOSURE = 0, PD_GENERATION = 4, PD_LENGTH = 8;
    /** A PULL record's payload: its bytes and fields. */
    public static final int PULL_REQUEST_BYTES = 24;
    public static final long REQ_PULL_SLOT = 0, REQ_PULL_GENERATION = 4, REQ_EXPOSURE = 8, REQ_EXPOSURE_GENERATION = 12, REQ_LENGTH = 16;
    /** A PULL_DATA record's payload header: its bytes and fields. */
    public static final int PULL_DATA_HEADER = 16;
    public static final long DATA_PULL_SLOT = 0, DATA_PULL_GENERATION = 4, DATA_OFFSET = 8;
    /** Bytes of each packet ring's data unless configured. */
    public static final int DEFAULT_RING_BYTES = 1 << 20;

    /** Slots per ring unless configured. */
    public static final int DEFAULT_SLOTS = 64;
    /** Bytes per slot unless configured: 224 bytes of arguments or answer. */
    public static final int DEFAULT_SLOT_BYTES = 256;

    private ChannelLayout() {
    }

    /** The bytes of a channel of {@code slots} slots of {@code slotBytes}, without packet rings. */
    public static long bytes(int slots, int slotBytes) {
        return SLOTS_START + (long) slots * slotBytes;
    }

    /** The bytes of a channel with two packet rings of {@code ringBytes} of data each, and its exposure and pull slots. */
    public static long bytes(int slots, int slotBytes, int ringBytes) {
        return ringBytes == 0 ? bytes(slots, slotBytes) : matches(slots, slotBytes, ringBytes) + PULL_SLOTS * MATCH_BYTES;
    }

    /** Where the exposure slots start (after the IN ring). */
    public static long exposures(int slots, int slotBytes, int ringBytes) {
        return inRing(slots, slotBytes, ringBytes) + RING_DATA + ringBytes;
    }

    /** Where the pull slots start. */
    public static long pulls(int slots, int slotBytes, int ringBytes) {
        return exposures(slots, slotBytes, ringBytes) + PULL_SLOTS * PULL_SLOT_BYTES;
    }

    /** Where the pull slots' match fields start. */
    public static long matches(int slots, int slotBytes, int ringBytes) {
        return pulls(slots, slotBytes, ringBytes) + PULL_SLOTS * PULL_SLOT_BYTES;
    }

    /** Where the OUT packet ring starts. */
    public static long outRing(int slots, int slotBytes) {
        return bytes(slots, slotBytes);
    }

    /** Where the IN packet ring starts. */
    public static long inRing(int slots, int slotBytes, int ringBytes) {
        return outRing(slots, slotBytes) + RING_DATA + ringBytes;
    }

    /** A record's bytes in a ring: its header and payload, to the next 8-byte boundary. */
    public static long recordBytes(long payload) {
        return (REC_HEADER + payload + 7) & ~7L;
    }

    /** Where counter {@code index} starts. */
    public static long counter(int index) {
        return COUNTERS_START + index * COUNTER_BYTES;
    }

    /** Where slot {@code index} starts. */
    public static long slot(int index, int slotBytes) {
        return SLOTS_START + (long) index * slotBytes;
    }

    /** The argument or return bytes a slot of {@code slotBytes} holds. */
    public static int payload(int slotBytes) {
        return slotBytes - (int) PAYLOAD;
    }
}
