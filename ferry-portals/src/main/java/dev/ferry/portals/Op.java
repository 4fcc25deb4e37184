package dev.ferry.portals;

/**
 * ptl_op_t: the atomic operations. {@code atomic} and {@code fetchAtomic} take MIN .. BXOR;
 * {@code swap} takes SWAP .. MSWAP and the two extensions of seed 004: {@link #MSK_CSWAP} and
 * {@link #MFETCH_ADD}, both on one 64-bit integer.
 *
 * <pre>{@code
 * swap(getMd, 0, putMd, 0, 8, target, pt, 0, 0, null, 0, expected, Op.CSWAP, Datatype.INT64_T);
 * }</pre>
 */
public enum Op {
    MIN, MAX, SUM, PROD, LOR, LAND, BOR, BAND, LXOR, BXOR,
    /** target = put data; the old value is fetched. */
    SWAP,
    /** if (operand == target) target = put data. */
    CSWAP,
    /** if (operand != target) target = put data. */
    CSWAP_NE,
    /** {@code if (operand <= target) target = put data}. */
    CSWAP_LE,
    /** {@code if (operand < target) target = put data}. */
    CSWAP_LT,
    /** if (operand >= target) target = put data. */
    CSWAP_GE,
    /** if (operand > target) target = put data. */
    CSWAP_GT,
    /** {@code target = (put data & operand) | (target & ~operand)}: operand is the mask of bits to set. */
    MSWAP,
    /**
     * Extension (seed 004's MskCmpSwap), 8 bytes of INT64_T / UINT64_T: the operand is three 64-bit
     * words {compare, compare mask, swap mask}, the put data the swap value:
     * {@code if (((compare ^ target) & compareMask) == 0) target = (target & ~swapMask) | (swap & swapMask)};
     * the old value is fetched.
     */
    MSK_CSWAP,
    /**
     * Extension (seed 004's MFetchAdd), 8 bytes of INT64_T / UINT64_T: the put data is the addend,
     * the operand one 64-bit word of field boundaries: a bit set at position i ends a field there,
     * so no carry passes from bit i to bit i + 1. Each field is added on its own; the old value is
     * fetched.
     */
    MFETCH_ADD;

    /** Whether {@code atomic} and {@code fetchAtomic} take this operation (the swap family does not). */
    public boolean isArithmetic() {
        return ordinal() <= BXOR.ordinal();
    }

    private static final Op[] VALUES = values();

    /** The constant at wire index {@code i}, or null when there is none (a malformed header). */
    static Op fromWire(int i) {
        return PtlWire.code(VALUES, i);
    }
}
