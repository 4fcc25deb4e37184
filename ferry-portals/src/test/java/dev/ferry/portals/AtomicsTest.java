package dev.ferry.portals;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The atomic arithmetic: every operation on representative types, and seed 004's masked operations bit for bit. */
class AtomicsTest {
    private static MemorySegment longs(long... v) {
        MemorySegment m = MemorySegment.ofArray(new byte[v.length * 8]);
        for (int i = 0; i < v.length; i++) {
            m.set(ValueLayout.JAVA_LONG_UNALIGNED, i * 8L, v[i]);
        }
        return m;
    }

    private static long apply(Op op, Datatype dt, long target, long data, MemorySegment operand) {
        MemorySegment t = longs(target), d = longs(data), f = longs(0);
        Atomics.apply(op, dt, t, 0, d, 0, dt.size(), operand, 0, f, 0);
        assertEquals(Atomics.read(dt, longs(target), 0), Atomics.read(dt, f, 0), "the old value is fetched");
        return Atomics.read(dt, t, 0);
    }

    // ---- seed 004: vectors worked out by hand from its pseudo-code -------------------------

    @Test
    void maskedFetchAddWithoutBoundariesIsAnOrdinaryAdd() {
        assertEquals(0x1_0000_0000L, Atomics.maskedFetchAdd(0xffff_ffffL, 1, 0));
        assertEquals(0, Atomics.maskedFetchAdd(-1L, 1, 0)); // carry out of bit 63 is lost
        assertEquals(12345 + 67890, Atomics.maskedFetchAdd(12345, 67890, 0));
    }

    @Test
    void maskedFetchAddStopsCarriesAtFieldBoundaries() {
        // two 32-bit fields: boundary bits at 31 and 63; low field 0xffffffff + 1 wraps to 0, high field untouched
        long boundaries = (1L << 31) | (1L << 63);
        assertEquals(0x0000_0005_0000_0000L, Atomics.maskedFetchAdd(0x0000_0005_ffff_ffffL, 1, boundaries));
        // eight 8-bit fields: each byte adds on its own, 0xff + 0x01 = 0x00 without touching the next byte
        long bytes = 0x8080_8080_8080_8080L;
        assertEquals(0x0102_0300_0408_fe00L, Atomics.maskedFetchAdd(0x0001_02ff_0305_fdffL, 0x0101_0101_0103_0101L, bytes));
        // a boundary at bit 0: bit 0 is a 1-bit field, 1 + 1 = 0 with no carry into bit 1
        assertEquals(0b10, Atomics.maskedFetchAdd(0b11, 0b01, 0b01));
        // without it the carry ripples: 0b11 + 0b01 = 0b100
        assertEquals(0b100, Atomics.maskedFetchAdd(0b11, 0b01, 0));
        // 16-bit fields, 0x7fff + 0x0001 = 0x8000 (no boundary crossed), 0xffff + 0x0002 = 0x0001
        long shorts = 0x8000_8000_8000_8000L;
        assertEquals(0x0001_8000_0000_0000L + 0x0000_0000_0000_0001L,
                Atomics.maskedFetchAdd(0xffff_7fff_0000_0000L, 0x0002_0001_0000_0001L, shorts));
    }

    @Test
    void maskedCompareSwapComparesAndSwapsOnlyTheMaskedBits() {
        long va = 0x1234_5678_9abc_def0L;
        // compare only the low byte (0xf0 matches), swap only the high 32 bits
        assertEquals(0xcafe_babe_9abc_def0L, Atomics.maskedCompareSwap(va, 0x0000_0000_0000_00f0L, 0xffL, 0xcafe_babe_0000_0000L, 0xffff_ffff_0000_0000L));
        // the low byte differs under the mask: nothing changes
        assertEquals(va, Atomics.maskedCompareSwap(va, 0xf1L, 0xffL, 0, -1L));
        // an empty compare mask always swaps; an empty swap mask never changes anything
        assertEquals(0x1234_5678_0000_0000L | 0xffffL, Atomics.maskedCompareSwap(va, 0, 0, 0xffffL, 0xffff_ffffL) | 0xffffL);
        assertEquals(va, Atomics.maskedCompareSwap(va, 0, 0, -1L, 0));
        // full masks: an ordinary compare-and-swap
        assertEquals(7, Atomics.maskedCompareSwap(va, va, -1L, 7, -1L));
    }

    @Test
    void maskedOperationsThroughApplyUseTheirOperands() {
        assertEquals(0x0000_0005_0000_0000L, apply(Op.MFETCH_ADD, Datatype.UINT64_T, 0x0000_0005_ffff_ffffL, 1, longs((1L << 31) | (1L << 63))));
        assertEquals(0xabL, apply(Op.MSK_CSWAP, Datatype.INT64_T, 0x10, 0xab, longs(0x10, 0xff, 0xff)));
        assertEquals(0x10L, apply(Op.MSK_CSWAP, Datatype.INT64_T, 0x10, 0xab, longs(0x11, 0xff, 0xff)));
    }

    // ---- the Portals operations ---------------------------------------------------------

    @Test
    void integerOperations() {
        assertEquals(-5, apply(Op.MIN, Datatype.INT32_T, 3, -5, null));
        assertEquals(3, apply(Op.MIN, Datatype.UINT32_T, 3, -5, null), "-5 is large unsigned");
        assertEquals(0xffff_fffbL, apply(Op.MAX, Datatype.UINT32_T, 3, -5, null));
        assertEquals(-1L, apply(Op.MAX, Datatype.UINT64_T, 3, -1, null));
        assertEquals(3, apply(Op.MAX, Datatype.INT64_T, 3, -1, null));
        assertEquals((byte) 0x80, apply(Op.SUM, Datatype.INT8_T, 0x7f, 1, null), "wraps in 8 bits");
        assertEquals(0, apply(Op.SUM, Datatype.UINT16_T, 0xffff, 1, null));
        assertEquals(42, apply(Op.PROD, Datatype.INT64_T, 6, 7, null));
        assertEquals(1, apply(Op.LOR, Datatype.INT32_T, 0, 9, null));
        assertEquals(0, apply(Op.LAND, Datatype.INT32_T, 0, 9, null));
        assertEquals(1, apply(Op.LAND, Datatype.INT32_T, 4, 9, null));
        assertEquals(0, apply(Op.LXOR, Datatype.INT32_T, 4, 9, null));
        assertEquals(0b1110, apply(Op.BOR, Datatype.INT64_T, 0b1100, 0b0110, null));
        assertEquals(0b0100, apply(Op.BAND, Datatype.INT64_T, 0b1100, 0b0110, null));
        assertEquals(0b1010, apply(Op.BXOR, Datatype.INT64_T, 0b1100, 0b0110, null));
        assertEquals(9, apply(Op.SWAP, Datatype.INT64_T, 4, 9, null));
        assertEquals(9, apply(Op.CSWAP, Datatype.INT64_T, 4, 9, longs(4)));
        assertEquals(4, apply(Op.CSWAP, Datatype.INT64_T, 4, 9, longs(5)));
        assertEquals(9, apply(Op.CSWAP_NE, Datatype.INT64_T, 4, 9, longs(5)));
        assertEquals(9, apply(Op.CSWAP_LE, Datatype.INT64_T, 4, 9, longs(4)));
        assertEquals(4, apply(Op.CSWAP_LT, Datatype.INT64_T, 4, 9, longs(4)));
        assertEquals(9, apply(Op.CSWAP_GE, Datatype.INT64_T, 4, 9, longs(4)));
        assertEquals(9, apply(Op.CSWAP_GT, Datatype.INT64_T, 4, 9, longs(5)));
        assertEquals(4, apply(Op.CSWAP_GT, Datatype.UINT64_T, 4, 9, longs(-1)) == 4 ? 9 : 4, "unsigned: -1 > 4");
        assertEquals(0b1010_0101L, apply(Op.MSWAP, Datatype.UINT8_T, 0b1010_1010, 0b0101_0101, longs(0b0000_1111)));
    }

    @Test
    void floatingPointAndComplexOperations() {
        MemorySegment t = MemorySegment.ofArray(new double[] {1.5, -2});
        MemorySegment d = MemorySegment.ofArray(new double[] {0.25, 3});
        Atomics.apply(Op.SUM, Datatype.DOUBLE, t, 0, d, 0, 16, null, 0, null, 0);
        assertEquals(1.75, t.getAtIndex(ValueLayout.JAVA_DOUBLE, 0));
        assertEquals(1.0, t.getAtIndex(ValueLayout.JAVA_DOUBLE, 1));
        // (1 + 2i)(3 + 4i) = -5 + 10i
        MemorySegment c = MemorySegment.ofArray(new float[] {1, 2});
        Atomics.apply(Op.PROD, Datatype.FLOAT_COMPLEX, c, 0, MemorySegment.ofArray(new float[] {3, 4}), 0, 8, null, 0, null, 0);
        assertEquals(-5f, c.getAtIndex(ValueLayout.JAVA_FLOAT, 0));
        assertEquals(10f, c.getAtIndex(ValueLayout.JAVA_FLOAT, 1));
        MemorySegment m = MemorySegment.ofArray(new float[] {2});
        Atomics.apply(Op.MIN, Datatype.FLOAT, m, 0, MemorySegment.ofArray(new float[] {-1}), 0, 4, null, 0, null, 0);
        assertEquals(-1f, m.getAtIndex(ValueLayout.JAVA_FLOAT, 0));
    }

    @Test
    void typeRulesOfTheSpecification() {
        assertNotNull(Atomics.check(Op.BOR, Datatype.DOUBLE));
        assertNotNull(Atomics.check(Op.LAND, Datatype.FLOAT));
        assertNotNull(Atomics.check(Op.MIN, Datatype.DOUBLE_COMPLEX));
        assertNotNull(Atomics.check(Op.CSWAP_LT, Datatype.FLOAT_COMPLEX));
        assertNotNull(Atomics.check(Op.MSWAP, Datatype.DOUBLE));
        assertNotNull(Atomics.check(Op.MFETCH_ADD, Datatype.INT32_T));
        assertNull(Atomics.check(Op.SUM, Datatype.LONG_DOUBLE_COMPLEX));
        assertNull(Atomics.check(Op.CSWAP, Datatype.DOUBLE_COMPLEX));
        assertNull(Atomics.check(Op.PROD, Datatype.UINT8_T));
    }

    /** 80-bit extended values: 1.5 = 0x3fff c000000000000000, 2.25 = 0x4000 9000000000000000. */
    private static MemorySegment ld(int signExp, long significand) {
        MemorySegment m = Arena.ofAuto().allocate(16);
        m.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, significand);
        m.set(ValueLayout.JAVA_SHORT_UNALIGNED, 8, (short) signExp);
        return m;
    }

    @Test
    void longDoubleIsComputedExactlyAndRoundedOnce() {
        MemorySegment a = ld(0x3fff, 0xc000_0000_0000_0000L); // 1.5
        Atomics.apply(Op.SUM, Datatype.LONG_DOUBLE, a, 0, ld(0x3fff, 0xc000_0000_0000_0000L), 0, 16, null, 0, null, 0);
        assertEquals(0xc000_0000_0000_0000L, a.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)); // 3.0 = 1.5 x 2^1
        assertEquals(0x4000, a.get(ValueLayout.JAVA_SHORT_UNALIGNED, 8) & 0xffff);
        Atomics.apply(Op.PROD, Datatype.LONG_DOUBLE, a, 0, ld(0x3fff, 0xc000_0000_0000_0000L), 0, 16, null, 0, null, 0);
        assertEquals(0x9000_0000_0000_0000L, a.get(ValueLayout.JAVA_LONG_UNALIGNED, 0)); // 4.5 = 1.125 x 2^2
        assertEquals(0x4001, a.get(ValueLayout.JAVA_SHORT_UNALIGNED, 8) & 0xffff);
        // 1 + 2^-64 rounds to 1 (ties to even); 1 + 3 x 2^-65 rounds up to 1 + 2^-63
        MemorySegment one = ld(0x3fff, 0x8000_0000_0000_0000L);
        Atomics.apply(Op.SUM, Datatype.LONG_DOUBLE, one, 0, ld(0x3fff - 64, 0x8000_0000_0000_0000L), 0, 16, null, 0, null, 0);
        assertEquals(0x8000_0000_0000_0000L, one.get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
        Atomics.apply(Op.SUM, Datatype.LONG_DOUBLE, one, 0, ld(0x3fff - 64, 0xc000_0000_0000_0000L), 0, 16, null, 0, null, 0);
        assertEquals(0x8000_0000_0000_0001L, one.get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
        // MIN with a negative value, and -x + x = +0
        MemorySegment m = ld(0x3fff, 0x8000_0000_0000_0000L);
        Atomics.apply(Op.MIN, Datatype.LONG_DOUBLE, m, 0, ld(0xbfff, 0xc000_0000_0000_0000L), 0, 16, null, 0, null, 0);
        assertEquals(0xbfff, m.get(ValueLayout.JAVA_SHORT_UNALIGNED, 8) & 0xffff);
        Atomics.apply(Op.SUM, Datatype.LONG_DOUBLE, m, 0, ld(0x3fff, 0xc000_0000_0000_0000L), 0, 16, null, 0, null, 0);
        assertEquals(0, m.get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
        assertEquals(0, m.get(ValueLayout.JAVA_SHORT_UNALIGNED, 8));
    }

    /**
     * applyAtomically is apply, element by element with one read-modify-write instruction or
     * compare-and-swap: same results, same old values, on every coherent type.
     */
    @Test
    void applyAtomicallyGivesWhatApplyGives() {
        java.util.Random rnd = new java.util.Random(42);
        MemorySegment scratch = Arena.ofAuto().allocate(8, 8);
        for (Datatype dt : Datatype.values()) {
            if (!Atomics.coherent(dt)) {
                continue;
            }
            for (Op op : Op.values()) {
                if (Atomics.check(op, dt) != null) {
                    continue;
                }
                for (int round = 0; round < 50; round++) {
                    int n = 4 * dt.size();
                    MemorySegment a = Arena.ofAuto().allocate(n, 8), b = Arena.ofAuto().allocate(n, 8);
                    MemorySegment data = Arena.ofAuto().allocate(n, 8), operand = Arena.ofAuto().allocate(32, 8);
                    MemorySegment fetchA = Arena.ofAuto().allocate(n, 8), fetchB = Arena.ofAuto().allocate(n, 8);
                    // every other round small values, so that compares hit as well as miss; else any
                    // bits, so that sums carry out of the word and 4-byte old values have their sign bit
                    int bound = round % 2 == 0 ? 4 : 256;
                    for (int i = 0; i < n; i++) {
                        a.set(ValueLayout.JAVA_BYTE, i, (byte) rnd.nextInt(bound));
                        data.set(ValueLayout.JAVA_BYTE, i, (byte) rnd.nextInt(bound));
                    }
                    for (int i = 0; i < 32; i++) {
                        operand.set(ValueLayout.JAVA_BYTE, i, (byte) rnd.nextInt(4));
                    }
                    if (round % 3 == 0) {
                        MemorySegment.copy(a, 0, operand, 0, dt.size()); // a compare that matches the first element
                    }
                    b.copyFrom(a);
                    Atomics.apply(op, dt, a, 0, data, 0, n, operand, 0, fetchA, 0);
                    Atomics.applyAtomically(op, dt, b, 0, data, 0, n, operand, 0, fetchB, 0, scratch);
                    String what = op + " on " + dt + ", round " + round;
                    assertEquals(-1L, a.mismatch(b), what + ": the targets differ");
                    assertEquals(-1L, fetchA.mismatch(fetchB), what + ": the old values differ");
                }
            }
        }
    }

    @Test
    void coherentTypesAreTheFourAndEightByteScalars() {
        assertEquals(true, Atomics.coherent(Datatype.INT64_T));
        assertEquals(true, Atomics.coherent(Datatype.UINT32_T));
        assertEquals(true, Atomics.coherent(Datatype.DOUBLE));
        assertEquals(true, Atomics.coherent(Datatype.FLOAT));
        assertEquals(false, Atomics.coherent(Datatype.INT16_T));
        assertEquals(false, Atomics.coherent(Datatype.FLOAT_COMPLEX));
        assertEquals(false, Atomics.coherent(Datatype.LONG_DOUBLE));
    }
}
