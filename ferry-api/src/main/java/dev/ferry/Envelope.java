package dev.ferry;

/**
 * The layout of the engine's 64-bit header word for the API's messages, the one place that names
 * each field:
 * <pre>
 *   bits  0..31  tag       (32)  the sender's tag; for an ACK, the synchronous send's id
 *   bits 32..47  context   (16)  the communicator's context (2 per communicator: user, internal)
 *   bits 48..49  kind      (2)   STANDARD, SYNC (wants an ACK once matched), ACK, FAULT (fault tolerance)
 *   bits 50..62  sync id   (13)  a SYNC message's id among its sender's pending ones to this peer
 *   bit  63      library   (1)   0; set on the messages of the Portals library the windows use
 * </pre>
 * The source is not in the word: the engine knows which peer a message came from. A FAULT
 * message ({@link FaultTolerance}: a revocation or a step of an agreement) splits its tag:
 * <pre>
 *   bits  0..27  sequence  (28)  the agreement's number on its communicator (0 for a revocation)
 *   bits 28..31  step      (4)   {@link FaultTolerance}'s REVOKE, CONTRIBUTE, PROPOSE, ACCEPT, COMMIT
 * </pre>
 */
final class Envelope {
    static final int TAG_SHIFT = 0;
    static final int CONTEXT_SHIFT = 32;
    static final int CONTEXT_BITS = 16;
    static final int KIND_SHIFT = 48;
    static final int SYNC_ID_SHIFT = 50;
    static final int SYNC_ID_BITS = 13;

    static final int STANDARD = 0, SYNC = 1, ACK = 2, FAULT = 3;
    static final int FAULT_SEQ_BITS = 28;
    static final int FAULT_STEP_SHIFT = 28;
    /** Contexts a header can name. */
    static final int CONTEXTS = 1 << CONTEXT_BITS;
    /** Synchronous sends one rank can have pending to one peer. */
    static final int SYNC_IDS = 1 << SYNC_ID_BITS;

    /**
     * The header bits a receive ignores when the node agent matches for it: a message's kind may
     * be STANDARD or SYNC (bit 48), and a SYNC one carries its id; ACK and FAULT (bit 49) and the
     * library's messages (bit 63) never match.
     */
    static final long MATCH_IGNORE = 1L << KIND_SHIFT | (long) (SYNC_IDS - 1) << SYNC_ID_SHIFT;
    /** The tag's bits, which a receive of any tag ignores as well. */
    static final long TAG_BITS = 0xffff_ffffL << TAG_SHIFT;

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

    /** A FAULT message's header: {@code step} of agreement {@code seq} (or a revocation) on {@code context}. */
    static long faultHeader(int context, int step, int seq) {
        return header(context, step << FAULT_STEP_SHIFT | seq & ((1 << FAULT_SEQ_BITS) - 1), FAULT, 0);
    }

    static int faultStep(long header) {
        return tag(header) >>> FAULT_STEP_SHIFT;
    }

    static int faultSeq(long header) {
        return tag(header) & ((1 << FAULT_SEQ_BITS) - 1);
    }

    static int syncId(long header) {
        return (int) (header >>> SYNC_ID_SHIFT) & (SYNC_IDS - 1);
    }
}
