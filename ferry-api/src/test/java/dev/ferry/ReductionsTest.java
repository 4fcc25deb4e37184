package dev.ferry;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.*;

/** The predefined operations on each primitive kind, edge values included: {@code inout = in op inout}. */
class ReductionsTest {
    private static int[] ints(Op op, int[] in, int[] inout) {
        int[] out = inout.clone();
        op.apply(MemorySegment.ofArray(in), MemorySegment.ofArray(out), in.length, Datatype.INT);
        return out;
    }

    @Test
    void integerOperationsWrapAndTreatNonZeroAsTrue() {
        int[] a = {Integer.MAX_VALUE, 6, -3, 0, 5}, b = {1, 3, 4, 7, 0};
        assertArrayEquals(new int[] {Integer.MIN_VALUE, 9, 1, 7, 5}, ints(Op.SUM, a, b));
        assertArrayEquals(new int[] {Integer.MAX_VALUE, 18, -12, 0, 0}, ints(Op.PROD, a, b));
        assertArrayEquals(new int[] {1, 3, -3, 0, 0}, ints(Op.MIN, a, b));
        assertArrayEquals(new int[] {Integer.MAX_VALUE, 6, 4, 7, 5}, ints(Op.MAX, a, b));
        assertArrayEquals(new int[] {1, 1, 1, 0, 0}, ints(Op.LAND, a, b));
        assertArrayEquals(new int[] {1, 1, 1, 1, 1}, ints(Op.LOR, a, b));
        assertArrayEquals(new int[] {0, 0, 0, 1, 1}, ints(Op.LXOR, a, b));
        assertArrayEquals(new int[] {1, 2, 4, 0, 0}, ints(Op.BAND, a, b));
        assertArrayEquals(new int[] {Integer.MAX_VALUE, 7, -3, 7, 5}, ints(Op.BOR, a, b));
        assertArrayEquals(new int[] {Integer.MAX_VALUE - 1, 5, -7, 7, 5}, ints(Op.BXOR, a, b));
    }

    @Test
    void narrowKindsWrapAsTheirJavaTypesAndCharIsUnsigned() {
        byte[] bi = {127, -128}, bo = {1, -1};
        Op.SUM.apply(MemorySegment.ofArray(bi), MemorySegment.ofArray(bo), 2, Datatype.BYTE);
        assertArrayEquals(new byte[] {-128, 127}, bo);
        short[] si = {Short.MAX_VALUE}, so = {2};
        Op.SUM.apply(MemorySegment.ofArray(si), MemorySegment.ofArray(so), 1, Datatype.SHORT);
        assertEquals((short) (Short.MAX_VALUE + 2), so[0]);
        char[] ci = {65535, 1}, co = {1, 2};
        Op.MAX.apply(MemorySegment.ofArray(ci), MemorySegment.ofArray(co), 2, Datatype.CHAR);
        assertArrayEquals(new char[] {65535, 2}, co); // unsigned: 65535 is the largest
        long[] li = {Long.MAX_VALUE}, lo = {1};
        Op.SUM.apply(MemorySegment.ofArray(li), MemorySegment.ofArray(lo), 1, Datatype.LONG);
        assertEquals(Long.MIN_VALUE, lo[0]);
    }

    @Test
    void floatingPointFollowsJavasArithmetic() {
        double[] di = {0.1, -0.0, Double.NaN, 1e308}, d = {0.2, 0.0, 1, 1e308};
        Op.SUM.apply(MemorySegment.ofArray(di), MemorySegment.ofArray(d), 4, Datatype.DOUBLE);
        assertEquals(0.1 + 0.2, d[0]);
        assertEquals(0.0, d[1]);
        assertTrue(Double.isNaN(d[2]));
        assertEquals(Double.POSITIVE_INFINITY, d[3]);
        double[] mi = {-0.0}, mo = {0.0};
        Op.MIN.apply(MemorySegment.ofArray(mi), MemorySegment.ofArray(mo), 1, Datatype.DOUBLE);
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(mo[0]));
        float[] fi = {1.5f, 2f}, fo = {2f, 3f};
        Op.PROD.apply(MemorySegment.ofArray(fi), MemorySegment.ofArray(fo), 2, Datatype.FLOAT);
        assertArrayEquals(new float[] {3f, 6f}, fo);
    }

    @Test
    void minlocAndMaxlocKeepTheValuesIndexAndTheLowerIndexOnTies() {
        int[] in = {5, 9, 7, 1, 4, 2}, inout = {5, 3, 7, 8, 6, 0};
        int[] min = inout.clone(), max = inout.clone();
        Op.MINLOC.apply(MemorySegment.ofArray(in), MemorySegment.ofArray(min), 3, Datatype.INT2);
        Op.MAXLOC.apply(MemorySegment.ofArray(in), MemorySegment.ofArray(max), 3, Datatype.INT2);
        assertArrayEquals(new int[] {5, 3, 7, 1, 4, 2}, min);
        assertArrayEquals(new int[] {5, 3, 7, 1, 6, 0}, max);
        // DOUBLE_INT packed: 8 bytes of value, 4 of index
        MemorySegment a = MemorySegment.ofArray(new byte[12]), b = MemorySegment.ofArray(new byte[12]);
        a.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, 2.5);
        a.set(ValueLayout.JAVA_INT_UNALIGNED, 8, 7);
        b.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, 2.5);
        b.set(ValueLayout.JAVA_INT_UNALIGNED, 8, 9);
        Op.MINLOC.apply(a, b, 1, Datatype.DOUBLE_INT);
        assertEquals(7, b.get(ValueLayout.JAVA_INT_UNALIGNED, 8));
    }

    @Test
    void anOperationNotDefinedOnATypeIsNamed() {
        FerryException x = assertThrows(FerryException.class, () -> Op.BXOR.check(Datatype.FLOAT));
        assertEquals(ErrorClass.OP, x.errorClass());
        assertThrows(FerryException.class, () -> Op.SUM.check(Datatype.INT2));
        assertThrows(FerryException.class, () -> Op.SUM.check(Datatype.struct(new int[] {1, 1}, new long[] {0, 8},
                new Datatype[] {Datatype.DOUBLE, Datatype.INT})));
        Op.SUM.check(Datatype.vector(2, 1, 3, Datatype.LONG)); // one kind: fine
        Op.create((in, inout, count, type) -> { }, false).check(Datatype.INT2); // user ops take anything
    }

    @Test
    void reduceLocalCombinesInPlaceAlsoThroughAStridedType() {
        int[] a = {1, 2, 3, 4}, b = {10, 20, 30, 40};
        Op.SUM.reduceLocal(a, 1, b, 0, 2, Datatype.INT);
        assertArrayEquals(new int[] {12, 23, 30, 40}, b);
        double[] x = {1, -1, 5, -1}, y = {2, 9, 3, 9};
        Op.MAX.reduceLocal(x, 0, y, 0, 2, Datatype.vector(1, 1, 2, Datatype.DOUBLE)); // one block of one double: elements 0 and 1
        assertArrayEquals(new double[] {2, 9, 3, 9}, y);
        Op.MAX.reduceLocal(x, 0, y, 0, 1, Datatype.vector(2, 1, 2, Datatype.DOUBLE)); // elements 0 and 2
        assertArrayEquals(new double[] {2, 9, 5, 9}, y);
        long[] p = {1, 2, 3}, q = {10, 20, 30};
        Op.SUM.reduceLocal(p, 1L, q, 0L, 2L, Datatype.LONG); // the long form
        assertArrayEquals(new long[] {12, 23, 30}, q);
        Op.MAX.reduceLocal(x, 0L, y, 0L, 1L, Datatype.vector(2, 1, 2, Datatype.DOUBLE)); // through the packed copies
        assertArrayEquals(new double[] {2, 9, 5, 9}, y);
        assertThrows(FerryException.class, () -> Op.REPLACE.reduceLocal(a, 0, b, 0, 1, Datatype.INT));
        assertThrows(FerryException.class, () -> Op.BAND.reduceLocal(x, 0, y, 0, 1, Datatype.DOUBLE));
    }

    /**
     * Short runs go element by element ({@code Reductions.few}), long ones through the loops: both
     * give the same bits for every defined operation and kind, on random data with the edge values
     * (NaN, -0.0, infinities, the extremes) mixed in.
     */
    @Test
    void shortRunsAndLongLoopsGiveTheSameBits() {
        java.util.Random rnd = new java.util.Random(42);
        Class<?>[] kinds = {byte[].class, short[].class, char[].class, int[].class, long[].class, float[].class, double[].class};
        int[] sizes = {1, 2, 2, 4, 8, 4, 8};
        long n = 3 * Reductions.FEW + 5;
        for (int k = 0; k < kinds.length; k++) {
            for (Op.Code op : Op.Code.values()) {
                if (!Reductions.defined(op, kinds[k])) {
                    continue;
                }
                byte[] in = new byte[(int) n * sizes[k]], inout = new byte[in.length];
                rnd.nextBytes(in);
                rnd.nextBytes(inout);
                MemorySegment a = MemorySegment.ofArray(in), b = MemorySegment.ofArray(inout);
                if (kinds[k] == double[].class) {
                    double[] edges = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MAX_VALUE, Double.MIN_VALUE, 1.5};
                    for (int i = 0; i < n; i++) {
                        a.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, i * 8L, i % 3 == 0 ? edges[rnd.nextInt(edges.length)] : rnd.nextGaussian() * 1e6);
                        b.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, i * 8L, i % 4 == 0 ? edges[rnd.nextInt(edges.length)] : rnd.nextGaussian());
                    }
                } else if (kinds[k] == float[].class) {
                    float[] edges = {Float.NaN, -0.0f, 0.0f, Float.POSITIVE_INFINITY, Float.MAX_VALUE, Float.MIN_VALUE, 1.5f};
                    for (int i = 0; i < n; i++) {
                        a.set(ValueLayout.JAVA_FLOAT_UNALIGNED, i * 4L, i % 3 == 0 ? edges[rnd.nextInt(edges.length)] : (float) rnd.nextGaussian());
                        b.set(ValueLayout.JAVA_FLOAT_UNALIGNED, i * 4L, i % 4 == 0 ? edges[rnd.nextInt(edges.length)] : (float) rnd.nextGaussian());
                    }
                } else {
                    for (int i = 0; i < n; i += 5) {
                        b.asSlice((long) i * sizes[k], sizes[k]).fill((byte) 0); // zeros for the logical operations
                    }
                }
                MemorySegment looped = MemorySegment.ofArray(inout.clone()), single = MemorySegment.ofArray(inout.clone());
                Reductions.apply(op, kinds[k], a, looped, n);
                for (long i = 0; i < n; i++) {
                    Reductions.apply(op, kinds[k], a.asSlice(i * sizes[k], sizes[k]), single.asSlice(i * sizes[k], sizes[k]), 1);
                }
                assertArrayEquals(looped.toArray(ValueLayout.JAVA_BYTE), single.toArray(ValueLayout.JAVA_BYTE),
                        op + " on " + kinds[k].getComponentType());
            }
        }
    }
}
