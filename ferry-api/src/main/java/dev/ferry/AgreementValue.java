package dev.ferry;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * What one agreement of {@link FaultTolerance} is about: a member's contribution, or the decision
 * its coordinator made of them. Flags and a mask are ANDed over the contributors (the mask: the
 * context ids free at each, for {@link Comm#shrink}); failed members (ranks of the communicator)
 * are ORed; the members each has {@linkplain Comm#ackFailed acknowledged} as failed are ANDed. A
 * decision's error bit says a member failed whose failure not every contributor had acknowledged
 * (ULFM's PROC_FAILED, raised the same at every survivor).
 *
 * <p>The wire layout of a value, the one place that names it (in the hosts' byte order):
 * <pre>
 *   offset  size  field
 *     0      4    flags
 *     4      4    error        1 when the decision raises PROC_FAILED (a decision's only)
 *     8      4    maskWords    M, longs of mask
 *    12      4    rankWords    W, longs of each rank bitmap
 *    16     8M    mask
 *    16+8M  8W    failed       bit r: rank r of the communicator failed
 *    16+8M+8W 8W  acknowledged bit r: rank r's failure acknowledged
 * </pre>
 * A CONTRIBUTE message is a 4-byte {@code proposer} (the rank of the coordinator whose proposal
 * this member holds, plus one; 0 for none), 4 bytes of padding, the member's value, then that
 * proposal's value when there is one. PROPOSE and COMMIT carry a value; the other steps nothing.
 */
final class AgreementValue {
    static final int FLAGS = 0, ERROR = 4, MASK_WORDS = 8, RANK_WORDS = 12, HEADER = 16;
    static final int CONTRIBUTION_PROPOSER = 0, CONTRIBUTION_VALUE = 8;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    int flags;
    boolean error;
    final long[] mask;
    final long[] failed;
    final long[] acknowledged;

    AgreementValue(int flags, long[] mask, int ranks) {
        this.flags = flags;
        this.mask = mask;
        this.failed = new long[words(ranks)];
        this.acknowledged = new long[words(ranks)];
    }

    private AgreementValue(int flags, boolean error, long[] mask, long[] failed, long[] acknowledged) {
        this.flags = flags;
        this.error = error;
        this.mask = mask;
        this.failed = failed;
        this.acknowledged = acknowledged;
    }

    static int words(int ranks) {
        return (ranks + 63) >>> 6;
    }

    AgreementValue copy() {
        return new AgreementValue(flags, error, mask.clone(), failed.clone(), acknowledged.clone());
    }

    /** Takes another contribution in: flags and mask ANDed, failures ORed, acknowledgements ANDed. */
    void combine(AgreementValue other) {
        flags &= other.flags;
        for (int i = 0; i < mask.length && i < other.mask.length; i++) {
            mask[i] &= other.mask[i];
        }
        for (int i = 0; i < failed.length; i++) {
            failed[i] |= other.failed[i];
            acknowledged[i] &= other.acknowledged[i];
        }
    }

    /** Makes the combination a decision: {@code alsoFailed} joins the failed, and the error bit is set when a failure is not acknowledged by all. */
    void decide(long[] alsoFailed) {
        boolean unacknowledged = false;
        for (int i = 0; i < failed.length; i++) {
            failed[i] |= alsoFailed[i];
            unacknowledged |= (failed[i] & ~acknowledged[i]) != 0;
        }
        error = unacknowledged;
    }

    static void set(long[] bits, int rank) {
        bits[rank >>> 6] |= 1L << rank;
    }

    static boolean isSet(long[] bits, int rank) {
        return (bits[rank >>> 6] & 1L << rank) != 0;
    }

    int bytes() {
        return HEADER + 8 * (mask.length + 2 * failed.length);
    }

    void write(MemorySegment to, long at) {
        to.set(INT, at + FLAGS, flags);
        to.set(INT, at + ERROR, error ? 1 : 0);
        to.set(INT, at + MASK_WORDS, mask.length);
        to.set(INT, at + RANK_WORDS, failed.length);
        long p = at + HEADER;
        for (long w : mask) {
            to.set(LONG, p, w);
            p += 8;
        }
        for (long w : failed) {
            to.set(LONG, p, w);
            p += 8;
        }
        for (long w : acknowledged) {
            to.set(LONG, p, w);
            p += 8;
        }
    }

    static AgreementValue read(MemorySegment from, long at) {
        int m = from.get(INT, at + MASK_WORDS), w = from.get(INT, at + RANK_WORDS);
        long[] mask = new long[m], failed = new long[w], acknowledged = new long[w];
        long p = at + HEADER;
        for (int i = 0; i < m; i++, p += 8) {
            mask[i] = from.get(LONG, p);
        }
        for (int i = 0; i < w; i++, p += 8) {
            failed[i] = from.get(LONG, p);
        }
        for (int i = 0; i < w; i++, p += 8) {
            acknowledged[i] = from.get(LONG, p);
        }
        return new AgreementValue(from.get(INT, at + FLAGS), from.get(INT, at + ERROR) != 0, mask, failed, acknowledged);
    }

    /** The bytes of a PROPOSE or COMMIT message. */
    byte[] encode() {
        byte[] b = new byte[bytes()];
        write(MemorySegment.ofArray(b), 0);
        return b;
    }

    /** The bytes of a CONTRIBUTE message: this value, and {@code proposal} (by {@code proposer}) when not null. */
    byte[] encodeContribution(int proposer, AgreementValue proposal) {
        byte[] b = new byte[CONTRIBUTION_VALUE + bytes() + (proposal == null ? 0 : proposal.bytes())];
        MemorySegment s = MemorySegment.ofArray(b);
        s.set(INT, CONTRIBUTION_PROPOSER, proposal == null ? 0 : proposer + 1);
        write(s, CONTRIBUTION_VALUE);
        if (proposal != null) {
            proposal.write(s, CONTRIBUTION_VALUE + bytes());
        }
        return b;
    }

    @Override
    public String toString() {
        return "flags " + Integer.toHexString(flags) + (error ? ", unacknowledged failures" : "") + ", failed " + Arrays.toString(failed);
    }
}
