package dev.ferry.driver.shm;

/**
 * Every shared-memory layout of the shm driver, in one place. All fields are native-endian (the
 * peers share one machine), 8-byte aligned; fields written by different processes sit on cache
 * lines of their own (128 bytes apart, so that adjacent-line prefetch does not pair them).
 *
 * <p><b>Common header</b> of every file, at offset 0:
 * <pre>
 *   0   u64  magic  "FERRYSHM" ({@link #MAGIC})
 *   8   u32  version ({@link #VERSION})
 *   12  u32  kind: {@link #KIND_CONTEXT}, {@link #KIND_CHANNEL}, {@link #KIND_ARENA}
 *   16  u64  owner pid            (channel: the creating side, A)
 *   24  u64  owner start time     (clock ticks since boot, /proc/PID/stat field 22: tells a reused pid)
 *   32  u64  second owner pid     (channel: side B, set when it attaches; else 0)
 *   40  u64  second owner start time
 *   48  u32  ready: 1 once the creator has initialised everything (written last, release)
 * </pre>
 *
 * <p><b>Context file</b> ({@value #CONTEXT_BYTES} bytes): the header, then
 * <pre>
 *   128 u32  doorbell: a futex word, incremented by a peer that publishes a packet while the owner
 *            sleeps, and by every signal that something else moved (a pull done, room freed, a state)
 *   132 u32  sleepers: how many threads of the owner sleep on the doorbell
 *   136 u64  the owner's address of this very mapping: what a peer reads to probe process_vm_readv
 *   144 u32  1 when the owner receives from every peer through a ring of the pair's channel (it
 *            never answers with its {@linkplain #QUEUE_LOCK shared queue}): a connecting creator
 *            may then send before the owner has attached
 *   256 u32  connection requests published: bumped by a peer after it published one (below)
 *   512      {@link #REQUEST_SLOTS} connection-request slots of {@link #REQUEST_BYTES} bytes, written by
 *            peers that connect to this context ({@code acceptProbe} reports them):
 *            +0 u32 state ({@link #REQUEST_FREE}, {@link #REQUEST_WRITING}, {@link #REQUEST_PUBLISHED}),
 *            +4 u32 key length, +8 the connecting context's key (at most {@link #REQUEST_KEY_MAX} bytes)
 * </pre>
 *
 * <p><b>Channel file</b>: one per connection, created by the side whose URL sorts lower (A). The
 * header, then the side states, then two {@linkplain #ring(int) rings} (A to B, B to A):
 * <pre>
 *   128 u32  state of A: {@link #SIDE_OPEN}, {@link #SIDE_DISCONNECTED}, {@link #SIDE_CLOSED}
 *   132 u32  1 when A can read B's memory with process_vm_readv (so B may send A packets by address)
 *   136 u32  how A receives: {@link #RECEIVE_RING} (ring B->A) or {@link #RECEIVE_QUEUE} (A's shared queue)
 *   140 u32  with RECEIVE_QUEUE, the sender id B writes in the entries it puts in A's queue
 *   144 u64  entries A has published into B's shared queue (release, after each one)
 *   256 ...  the same five fields for B (state, readv, receive mode, sender id, entries published)
 *   384 ...  ring A->B, then ring B->A, each {@link #RING_BYTES} bytes
 * </pre>
 * A side's receive mode is written before it announces itself (the creator before {@code ready},
 * the other side before its pid), so each side knows both once connected. The file is sparse: a
 * ring whose receiver takes the queue has its slots never touched, and costs no memory but the
 * page of its counters (and its bounce area and pull tables when large packets use them).
 *
 * <p><b>Shared queue file</b> ({@code .srq}, {@link #QUEUE_BYTES} bytes), one per context that
 * receives through one: many producers (the peers in queue mode), one consumer (the owner). The
 * header, then
 * <pre>
 *   128 u64  lock: the pid of the producer claiming a slot now, 0 when none. A producer takes it
 *            with a compare-and-set, writes its sender id and pid into the slot at the tail, moves
 *            the tail on and lets go; it then fills and publishes the slot unlocked. A lock whose
 *            holder died is taken over (the holder's slot, if it moved the tail, names a dead pid).
 *   256 u64  tail: the next position a producer claims; written under the lock
 *   384 u64  head: the next position the owner reads; written by the owner
 *   392 u32  full: 1 once a producer found no room; the owner then signals every queue peer when it frees a slot
 *   512      {@link #QUEUE_SLOTS} slots of {@link #QUEUE_SLOT_BYTES} bytes; slot S:
 *            S+0 u64 sequence (position + 1 once published), S+8 u32 kind ({@link #ENTRY_INLINE},
 *            {@link #ENTRY_RTS}, {@link #ENTRY_SKIP}), S+12 u32 sender id, S+16 u64 length,
 *            S+24 u64 claimer pid, S+32 the packet's bytes or a rendezvous descriptor, as in a ring
 * </pre>
 * A large packet's completion ({@code done}), bounce stream, exposures and split pulls stay in the
 * pair's channel file, whichever way its entries travel; toward a receiver that takes the queue
 * the bounce stream uses the first {@link #QUEUE_BOUNCE_BYTES} of the bounce area only.
 *
 * <p><b>Ring</b>, single producer, single consumer, at its offset R:
 * <pre>
 *   R+0    u64  head: next position the consumer will read; written by the consumer
 *   R+128  u64  done: large packets the consumer has finished; written by the consumer
 *   R+256  u64  bounce consumed: bytes of the bounce stream the consumer has taken
 *   R+384  u64  bounce produced: bytes of the bounce stream the producer has written
 *   R+512  slots: {@link #SLOTS} slots of {@link #SLOT_BYTES} bytes
 *   then   the bounce area: {@link #BOUNCE_BYTES} bytes, a byte ring for large packets copied twice
 *   then   the exposure table: {@link #EXPOSURES} u64 words, one per exposure slot of the producer
 *          ({@code sendExpose}); the consumer writes there the generation it has pulled (release),
 *          the producer reads it to complete the exposed packet
 *   then   the split table, from a 128-byte boundary: {@link #EXPOSURES} records of {@link #SPLIT_BYTES}
 *          bytes, one per exposure slot, for a pull the two sides copy together (below)
 * </pre>
 * <b>Split record</b>, at P = split table + exposure slot * {@link #SPLIT_BYTES}. The consumer (puller)
 * of a large exposed packet offers the producer (exposer) a share of the copy: it writes where the
 * bytes go, then the claim word; both sides then claim chunks ({@link #splitChunk}) with a
 * compare-and-set on that word, the puller reading its chunks with process_vm_readv, the exposer
 * writing its own with process_vm_writev. Every word carries the exposure's generation as a
 * 32-bit tag (generation mod 2^32-1, plus 1: never 0), so nothing of an older pull is taken for
 * the current one:
 * <pre>
 *   P+0    u64  claim: tag &lt;&lt; 32 | next chunk to copy; set by the puller (release), then claimed by both
 *   P+8    u64  the puller's destination address (one contiguous range)
 *   P+16   u64  bytes to copy
 *   P+24   u64  puller done: tag &lt;&lt; 32 | chunks the puller copied, written once it has no more to claim
 *   P+128  u64  exposer done: tag &lt;&lt; 32 | {@link #SPLIT_FAILED} if a write failed | chunks the exposer copied
 *   P+136  u32  errno of the exposer's failed write
 * </pre>
 * <b>Slot</b>, at S = slots + (position mod SLOTS) * SLOT_BYTES:
 * <pre>
 *   S+0    u64  sequence: position + 1 once the slot is published (release); the consumer polls it
 *   S+8    u32  kind: {@link #ENTRY_INLINE}, {@link #ENTRY_RTS}
 *   S+12   u32  (padding)
 *   S+16   u64  length of the packet
 *   S+24   ...  INLINE: the packet's bytes (up to {@link #SLOT_DATA}); RTS: a {@linkplain #RTS_MODE rendezvous descriptor}
 * </pre>
 * <b>Rendezvous descriptor</b> (an RTS slot's data, what the receiver needs to pull the packet):
 * <pre>
 *   +0   u32  mode: {@link #MODE_READV} (process_vm_readv from the sender's memory),
 *             {@link #MODE_ARENA} (memcpy from the sender's shared arena), {@link #MODE_BOUNCE}
 *   +4   u32  segment count n
 *   +8   u64  sender pid
 *   +16  u64  sequence number of this large packet on the ring (1, 2, ...)
 *   +24  u32  indirect: 1 when the n segments are not inline but in the sender's memory at the address of segment 0
 *   +28  u32  (padding)
 *   +32  n * 24 bytes: (u64 a, u64 b, u64 length): READV a = address in the sender;
 *             ARENA a = arena number, b = offset in it; BOUNCE: none (the bytes stream through
 *             the bounce area). Indirect: the one entry names the sender's array of n entries.
 * </pre>
 * <b>Pull data</b> ({@link #PULL_DATA_BYTES} bytes, what {@code sendExpose} writes for the upper
 * layer to carry): a rendezvous descriptor as above whose sequence-number field holds the
 * exposure's generation, +28 u32 its exposure slot, and at most {@link #PULL_INLINE_SEGMENTS}
 * segments inline (more go indirect).
 *
 * <b>Arena file</b>: the header, then the shared memory itself from {@link #ARENA_DATA}.
 *
 * <b>Share key</b> ({@link #SHARE_KEY_BYTES} bytes, what {@code shareKey} answers and a peer's
 * {@code mapShared} takes; little-endian):
 * <pre>
 *   +0   u64  arena number (the owner's arena file {@code -aN.arena})
 *   +8   u64  offset of the range in that arena's memory
 *   +16  u64  length of the range
 * </pre>
 */
final class ShmLayout {
    static final long MAGIC = 0x4d4853595252_4546L; // "FERRYSHM" read as a little-endian u64
    static final int VERSION = 4;
    static final int KIND_CONTEXT = 1;
    static final int KIND_CHANNEL = 2;
    static final int KIND_ARENA = 3;
    static final int KIND_QUEUE = 4;

    static final long MAGIC_OFFSET = 0;
    static final long VERSION_OFFSET = 8;
    static final long KIND_OFFSET = 12;
    static final long OWNER_PID_OFFSET = 16;
    static final long OWNER_START_OFFSET = 24;
    static final long OWNER2_PID_OFFSET = 32;
    static final long OWNER2_START_OFFSET = 40;
    static final long READY_OFFSET = 48;
    static final long HEADER_BYTES = 64;

    static final long CACHE_LINE_PAIR = 128;

    // context file
    static final long DOORBELL_OFFSET = 128;
    static final long SLEEPERS_OFFSET = 132;
    static final long CONTEXT_ADDRESS_OFFSET = 136;
    static final long RINGS_ALWAYS_OFFSET = 144;
    static final long CONTEXT_BYTES = 4096;
    static final long REQUESTS_PUBLISHED_OFFSET = 256;
    static final long REQUESTS_OFFSET = 512;
    static final int REQUEST_BYTES = 64;
    static final int REQUEST_SLOTS = (int) ((CONTEXT_BYTES - REQUESTS_OFFSET) / REQUEST_BYTES);
    static final long REQUEST_STATE = 0;
    static final long REQUEST_KEY_LENGTH = 4;
    static final long REQUEST_KEY = 8;
    static final int REQUEST_KEY_MAX = REQUEST_BYTES - (int) REQUEST_KEY;
    static final int REQUEST_FREE = 0;
    static final int REQUEST_WRITING = 1;
    static final int REQUEST_PUBLISHED = 2;

    // channel file
    static final long STATE_A_OFFSET = 128;
    static final long STATE_B_OFFSET = 256;
    static final long READV_A_OFFSET = 132;
    static final long READV_B_OFFSET = 260;
    /** Offsets of a side's fields from its state word (A: 128, B: 256). */
    static final long SIDE_RECEIVE_MODE = 8;
    static final long SIDE_SENDER_ID = 12;
    static final long SIDE_PUBLISHED = 16;
    static final int RECEIVE_RING = 0;
    static final int RECEIVE_QUEUE = 1;
    static final int SIDE_OPEN = 0;
    static final int SIDE_DISCONNECTED = 1;
    static final int SIDE_CLOSED = 2;
    static final long RINGS_OFFSET = 384;

    // ring
    static final long HEAD_OFFSET = 0;
    static final long DONE_OFFSET = 128;
    static final long BOUNCE_CONSUMED_OFFSET = 256;
    static final long BOUNCE_PRODUCED_OFFSET = 384;
    static final long SLOTS_OFFSET = 512;
    static final int SLOTS = 64;
    static final int SLOT_BYTES = 8192;
    static final long SEQ_OFFSET = 0;
    static final long ENTRY_KIND_OFFSET = 8;
    static final long ENTRY_LENGTH_OFFSET = 16;
    static final long ENTRY_DATA_OFFSET = 24;
    static final int SLOT_DATA = SLOT_BYTES - (int) ENTRY_DATA_OFFSET;
    static final int ENTRY_INLINE = 1;
    static final int ENTRY_RTS = 2;
    /** A queue slot claimed and given up (the connection ended first): the owner passes over it. */
    static final int ENTRY_SKIP = 3;
    static final long ENTRY_SENDER_OFFSET = 12;
    static final long BOUNCE_BYTES = 1L << 20;
    /** The part of a bounce area used toward a receiver that takes its shared queue. */
    static final long QUEUE_BOUNCE_BYTES = 1L << 16;
    static final int EXPOSURES = 64;
    static final long EXPOSED_OFFSET = SLOTS_OFFSET + (long) SLOTS * SLOT_BYTES + BOUNCE_BYTES;
    static final long SPLITS_OFFSET = (EXPOSED_OFFSET + EXPOSURES * 8L + CACHE_LINE_PAIR - 1) & -CACHE_LINE_PAIR;
    static final long SPLIT_BYTES = 2 * CACHE_LINE_PAIR;
    static final long RING_BYTES = SPLITS_OFFSET + EXPOSURES * SPLIT_BYTES;
    static final long CHANNEL_BYTES = RINGS_OFFSET + 2 * RING_BYTES;

    // rendezvous descriptor, within an RTS slot's data
    static final long RTS_MODE = 0;
    static final long RTS_COUNT = 4;
    static final long RTS_PID = 8;
    static final long RTS_NUMBER = 16;
    static final long RTS_INDIRECT = 24;
    static final long RTS_SEGMENTS = 32;
    static final int MODE_READV = 1;
    static final int MODE_ARENA = 2;
    static final int MODE_BOUNCE = 3;
    static final long RTS_ENTRY_BYTES = 24;
    /** Segments an RTS slot holds inline (DMA format); more go indirect. */
    static final int RTS_INLINE_SEGMENTS = (SLOT_DATA - (int) RTS_SEGMENTS) / 24;
    /** In pull data: the exposure slot whose word the puller sets. */
    static final long PULL_SLOT = 28;
    static final int PULL_INLINE_SEGMENTS = 2;
    static final int PULL_DATA_BYTES = (int) RTS_SEGMENTS + PULL_INLINE_SEGMENTS * (int) RTS_ENTRY_BYTES;

    // split record, within the split table
    static final long SPLIT_CLAIM = 0;
    static final long SPLIT_ADDRESS = 8;
    static final long SPLIT_LENGTH = 16;
    static final long SPLIT_PULLER_DONE = 24;
    static final long SPLIT_EXPOSER_DONE = CACHE_LINE_PAIR;
    static final long SPLIT_ERRNO = CACHE_LINE_PAIR + 8;
    /** In the exposer-done word: a write of the exposer's failed (its errno at {@link #SPLIT_ERRNO}). */
    static final long SPLIT_FAILED = 1L << 31;
    static final long SPLIT_CHUNK_MIN = 16 * 1024;
    static final long SPLIT_CHUNK_MAX = 256 * 1024;

    // shared queue file
    static final long QUEUE_LOCK = 128;
    static final long QUEUE_TAIL = 256;
    static final long QUEUE_HEAD = 384;
    static final long QUEUE_FULL = 392;
    static final long QUEUE_SLOTS_OFFSET = 512;
    static final int QUEUE_SLOTS = 128;
    static final long QUEUE_CLAIMER_OFFSET = 24;
    static final long QUEUE_DATA_OFFSET = 32;
    /** A queue slot carries what a ring slot does: {@link #SLOT_DATA} bytes. */
    static final int QUEUE_SLOT_BYTES = (int) QUEUE_DATA_OFFSET + SLOT_DATA;
    static final long QUEUE_BYTES = QUEUE_SLOTS_OFFSET + (long) QUEUE_SLOTS * QUEUE_SLOT_BYTES;

    // arena file
    static final long ARENA_DATA = 4096;

    // share key
    static final int SHARE_KEY_BYTES = 24;
    static final long SHARE_ARENA = 0;
    static final long SHARE_OFFSET = 8;
    static final long SHARE_LENGTH = 16;

    private ShmLayout() {
    }

    /** Offset of ring {@code which} (0: A to B, 1: B to A) in a channel file. */
    static long ring(int which) {
        return RINGS_OFFSET + which * RING_BYTES;
    }

    /** Offset of connection-request slot {@code i} in a context file. */
    static long request(int i) {
        return REQUESTS_OFFSET + (long) i * REQUEST_BYTES;
    }

    /**
     * Bytes per claim of a split pull of {@code bytes}: a quarter, in whole pages, from
     * {@link #SPLIT_CHUNK_MIN} to {@link #SPLIT_CHUNK_MAX}. Few chunks, because each costs a
     * system call and a claim (eighths of 128 KiB took 12 us where quarters took 11 and halves
     * 10); not two, so that an exposer that comes late leaves the rest to the puller rather than
     * making it wait for a half.
     */
    static long splitChunk(long bytes) {
        long quarter = ((bytes >> 2) + 4095) & -4096L;
        return Math.max(SPLIT_CHUNK_MIN, Math.min(SPLIT_CHUNK_MAX, quarter));
    }

    /** Offset, in a ring, of the split record of exposure slot {@code slot}. */
    static long split(int slot) {
        return SPLITS_OFFSET + slot * SPLIT_BYTES;
    }

    /** Offset of the state word of side {@code side} (0: A, 1: B) in a channel file; its other fields follow. */
    static long sideLine(int side) {
        return side == 0 ? STATE_A_OFFSET : STATE_B_OFFSET;
    }

    /** Offset of the queue slot of {@code position} in a shared queue file. */
    static long queueSlot(long position) {
        return QUEUE_SLOTS_OFFSET + (position & (QUEUE_SLOTS - 1)) * QUEUE_SLOT_BYTES;
    }

    static long slot(long position) {
        return SLOTS_OFFSET + (position & (SLOTS - 1)) * SLOT_BYTES;
    }
}
