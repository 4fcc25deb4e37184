package dev.ferry;

/**
 * Seed 004's pseudo-code for the masked atomics, transcribed line by line (test side, apart
 * from the library's own arithmetic), to check windows against: each answers the new value of
 * the target word; the operation returns the old one.
 */
final class Seed004 {
    private Seed004() {
    }

    /** MskCmpSwap: if (!((compare_add ^ *va) & compare_add_mask)) *va = (*va & ~(swap_mask)) | (swap & swap_mask). */
    static long maskedCompareSwap(long va, long compareAdd, long compareAddMask, long swap, long swapMask) {
        if (((compareAdd ^ va) & compareAddMask) == 0) {
            return (va & ~swapMask) | (swap & swapMask);
        }
        return va;
    }

    /** MFetchAdd: the bit_adder loop, the carry cut where compare_add_mask (the field boundaries) has a bit set. */
    static long maskedFetchAdd(long va, long compareAdd, long compareAddMask) {
        long bitPosition = 1;
        int carry = 0;
        long atomicResponse = 0;
        for (int i = 0; i <= 63; i++) {
            if (i != 0) {
                bitPosition = bitPosition << 1;
            }
            int[] newCarry = new int[1];
            int bitAddRes = bitAdder(carry, isSet(va, bitPosition), isSet(compareAdd, bitPosition), newCarry);
            if (bitAddRes != 0) {
                atomicResponse |= bitPosition;
            }
            carry = (newCarry[0] != 0 && isSet(compareAddMask, bitPosition) == 0) ? 1 : 0;
        }
        return atomicResponse;
    }

    private static int bitAdder(int ci, int b1, int b2, int[] co) {
        int value = ci + b1 + b2;
        co[0] = (value & 2) != 0 ? 1 : 0;
        return value & 1;
    }

    private static int isSet(long mask, long attr) {
        return (mask & attr) != 0 ? 1 : 0;
    }

    /**
     * Applies {@code n} random masked operations from {@code seed} to word {@code disp} of
     * {@code target} (locked by the caller), checking each old value against this model; answers
     * the model's final value.
     */
    static long check(Window win, int target, long disp, long seed, int n, long start) {
        java.util.Random rnd = new java.util.Random(seed);
        long model = start;
        for (int i = 0; i < n; i++) {
            long a = rnd.nextLong(), mask = rnd.nextInt(4) == 0 ? 0 : rnd.nextLong(), b = rnd.nextLong(), m2 = rnd.nextLong();
            long old;
            long next;
            if (rnd.nextBoolean()) {
                // compare against the model's value under a random mask half of the time: the swap then happens
                long compare = rnd.nextBoolean() ? model : a;
                old = win.maskedCompareSwap(target, disp, compare, mask, b, m2);
                next = maskedCompareSwap(model, compare, mask, b, m2);
            } else {
                old = win.maskedFetchAdd(target, disp, a, mask);
                next = maskedFetchAdd(model, a, mask);
            }
            if (old != model) {
                throw new AssertionError("masked operation " + i + " (seed " + seed + ") found 0x" + Long.toHexString(old)
                        + " where the seed's pseudo-code has 0x" + Long.toHexString(model));
            }
            model = next;
        }
        return model;
    }
}
