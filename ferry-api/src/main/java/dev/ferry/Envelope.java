package dev.ferry;

/**
 * The layout of the engine's 64-bit header word for the API's messages, the one place that names
 * each field:
 * <pre>
 *   bits  0..31  tag       (32)  the sender's tag; for an ACK, the synchronous send's id
 *   bits 32..47  context   (16)  the communicator's context (2 per communicator: user, internal)
 *   bits 48..49  kind      (2)   STANDARD, SYNC (wants an ACK once matched), ACK
 *   bits 50..62  sync id   (13)  a SYNC message's id among its sender's pending ones to this peer
 *   bit  63      library   (1)   0; set on the messages of the Portals library the windows use
 * </pre>
 * The source is not in the word: the engine knows which peer a message came from.
 */
final class Envelope {
    static final int TAG_SHIFT = 0;
    static final int CONTEXT_SHIFT = 32;
    static final int CONTEXT_BITS = 16;
    static final int KIND_SHIFT = 48;
    static final int SYNC_ID_SHIFT = 50;
    static final int SYNC_ID_BITS = 13;

    static final int STANDARD = 0, SYNC = 1, ACK = 2;
    /** Contexts a header can name. */
    static final int CONTEXTS = 1 << CONTEXT_BITS;
    /** Synchronous sends one rank can have pending to one peer. */
    static final int SYNC_IDS = 1 << SYNC_ID_BITS;

    private Envelope() {
    }

    static long header(int context, int tag, int kind, int syncId) {
        return (tag & 0xffff_ffffL) << TAG_SHIFT
                | (long) context << CONTEXT_SHIFT
                | (long) kind << KIND_SHIFT
                | (long) syncId << SYNC_ID_SHIFT;
    }

    static int tag(long header) {
        return (int) (header >>> TAG_SHIFT);
    }

    static int context(long header) {
        return (int) (header >>> CONTEXT_SHIFT) & (CONTEXTS - 1);
    }

    static int kind(long header) {
        return (int) (header >>> KIND_SHIFT) & 3;
    }

    static int syncId(long header) {
        return (int) (header >>> SYNC_ID_SHIFT) & (SYNC_IDS - 1);
    }
}
