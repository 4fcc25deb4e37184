package dev.ferry.portals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The arithmetic of the atomic operations on every datatype (library side): {@code apply} runs
 * one operation over the elements of a target range, after copying the old values out when the
 * operation fetches. The caller makes it atomic: the library applies every atomic aimed at this
 * process in its one thread of control, whichever peer and rail it came from. Values are
 * little-endian, read and written unaligned (a target offset need not be aligned).
 *
 * <p>The two operations of seed 004 are here as pure functions too, bit for bit its pseudo-code
 * ({@link #maskedCompareSwap}, {@link #maskedFetchAdd}).
 *
 * <pre>{@code
 * Atomics.apply(Op.SUM, Datatype.INT64_T, target, 0, operands, 0, 8, null, 0, fetched, 0);
 * }</pre>
 */
final class Atomics {
    private static final ValueLayout.OfByte I8 = ValueLayout.JAVA_BYTE;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private Atomics() {
    }

    /** Why {@code op} cannot run on {@code type}, or null when it can (the specification's table). */
    static String check(Op op, Datatype type) {
        switch (op) {
            case MIN, MAX, CSWAP_LE, CSWAP_LT, CSWAP_GE, CSWAP_GT -> {
                if (type.isComplex()) {
                    return op + " is not defined on the complex type " + type;
                }
            }
            case LOR, LAND, LXOR, BOR, BAND, BXOR, MSWAP -> {
                if (!type.isInteger()) {
                    return op + " needs an integer type, not " + type;
                }
            }
            case MSK_CSWAP, MFETCH_ADD -> {
                if (type != Datatype.INT64_T && type != Datatype.UINT64_T) {
                    return op + " works on one 64-bit integer (INT64_T or UINT64_T), not " + type;
                }
            }
            default -> {
            }
        }
        return null;
    }

    /** Bytes of operand {@code op} takes: one element for the compare-and-swaps and MSWAP, 24 / 8 for the extensions. */
    static int operandSize(Op op, Datatype type) {
        return switch (op) {
            case CSWAP, CSWAP_NE, CSWAP_LE, CSWAP_LT, CSWAP_GE, CSWAP_GT, MSWAP -> type.size();
            case MSK_CSWAP -> 24;
            case MFETCH_ADD -> 8;
            default -> 0;
        };
    }

    /**
     * Applies {@code op} to the {@code length / size} elements at {@code t[to..]} with the operand
     * data at {@code d[doff..]} (the put data), first copying the old elements to
     * {@code fetch[foff..]} when {@code fetch} is not null. {@code operand} is the swap family's
     * operand (null otherwise).
     */
    static void apply(Op op, Datatype type, MemorySegment t, long to, MemorySegment d, long doff, long length,
                      MemorySegment operand, long ooff, MemorySegment fetch, long foff) {
        if (fetch != null && length > 0) {
            MemorySegment.copy(t, to, fetch, foff, length);
        }
        int size = type.size();
        for (long i = 0; i + size <= length; i += size) {
            switch (type.kind) {
                case SIGNED, UNSIGNED -> integer(op, type, t, to + i, read(type, d, doff + i), operand, ooff);
                case FLOAT -> {
                    if (type == Datatype.FLOAT) {
                        floating(op, t, to + i, d, doff + i, operand, ooff, false);
                    } else if (type == Datatype.DOUBLE) {
                        floating(op, t, to + i, d, doff + i, operand, ooff, true);
                    } else {
                        LongDouble.apply(op, t, to + i, d, doff + i, operand, ooff);
                    }
                }
                case COMPLEX -> complex(op, type, t, to + i, d, doff + i, operand, ooff);
            }
        }
    }

    /**
     * Whether {@link #applyAtomically} can do {@code type}: 4- and 8-byte integers, float and
     * double (one atomic word per element).
     */
    static boolean coherent(Datatype type) {
        return type.kind != Datatype.Kind.COMPLEX && (type.size() == 4 || type.size() == 8);
    }

    private static final java.lang.invoke.VarHandle WORD32 = ValueLayout.JAVA_INT.varHandle();
    private static final java.lang.invoke.VarHandle WORD64 = ValueLayout.JAVA_LONG.varHandle();

    /**
     * {@link #apply} with each element changed by an atomic instruction (one read-modify-write for
     * the integer operations that have one, else compare-and-swap), so that it is
     * atomic with respect to other processes doing the same on shared memory (direct access) and
     * to this process's own {@link #apply} of the same element through this call. The elements at
     * {@code t[to..]} must be naturally aligned and {@link #coherent} in type; {@code scratch}
     * holds 8 bytes, 8-aligned, of the caller's own. Same arithmetic as {@link #apply}: a
     * compare-and-swap runs it on the scratch copy of each element.
     */
    static void applyAtomically(Op op, Datatype type, MemorySegment t, long to, MemorySegment d, long doff, long length,
                                MemorySegment operand, long ooff, MemorySegment fetch, long foff, MemorySegment scratch) {
        int size = type.size();
        boolean oneInstruction = type.kind != Datatype.Kind.FLOAT && oneInstruction(op);
        for (long i = 0; i + size <= length; i += size) {
            long at = to + i;
            long old;
            if (!oneInstruction) {
                old = compareAndSwap(op, type, t, at, d, doff + i, operand, ooff, scratch);
            } else if (size == 8) {
                old = oneInstruction64(op, t, at, d.get(I64, doff + i));
            } else {
                old = oneInstruction32(op, t, at, d.get(I32, doff + i));
            }
            if (fetch != null) {
                if (size == 8) {
                    fetch.set(I64, foff + i, old);
                } else {
                    fetch.set(I32, foff + i, (int) old);
                }
            }
        }
    }

    /**
     * The element at {@code t[at]} changed by {@link #apply}'s arithmetic with a compare-and-swap
     * loop; answers its old value (a 4-byte one sign-extended: compares and the CAS see the same bits).
     */
    private static long compareAndSwap(Op op, Datatype type, MemorySegment t, long at, MemorySegment d, long doff, MemorySegment operand,
                                       long ooff, MemorySegment scratch) {
        boolean wide = type.size() == 8;
        long old = wide ? (long) WORD64.getVolatile(t, at) : (int) WORD32.getVolatile(t, at);
        while (true) {
            long now = step(op, type, old, d, doff, operand, ooff, scratch);
            if (now == old) {
                return old; // unchanged (a compare that failed): the read is the operation
            }
            long seen = wide ? (long) WORD64.compareAndExchange(t, at, old, now) : (int) WORD32.compareAndExchange(t, at, (int) old, (int) now);
            if (seen == old) {
                return old;
            }
            old = seen;
        }
    }

    /**
     * Whether an integer {@code op} is one read-modify-write instruction (LOCK XADD, XCHG, LOCK
     * OR / AND / XOR): no read first, no retry when another process got in between, which is what
     * fetch-add costs most under contention. Two's-complement addition is the same for signed and
     * unsigned elements, and wraps as {@link #apply}'s does.
     */
    private static boolean oneInstruction(Op op) {
        return op == Op.SUM || op == Op.SWAP || op == Op.BOR || op == Op.BAND || op == Op.BXOR;
    }

    /** The 8-byte element at {@code t[at]} changed by {@code op} with {@code v}; answers its old value. */
    private static long oneInstruction64(Op op, MemorySegment t, long at, long v) {
        return switch (op) {
            case SUM -> (long) WORD64.getAndAdd(t, at, v);
            case SWAP -> (long) WORD64.getAndSet(t, at, v);
            case BOR -> (long) WORD64.getAndBitwiseOr(t, at, v);
            case BAND -> (long) WORD64.getAndBitwiseAnd(t, at, v);
            case BXOR -> (long) WORD64.getAndBitwiseXor(t, at, v);
            default -> throw new IllegalArgumentException(op + " is no single instruction");
        };
    }

    /** The 4-byte element at {@code t[at]} changed by {@code op} with {@code v}; answers its old value, sign-extended. */
    private static long oneInstruction32(Op op, MemorySegment t, long at, int v) {
        return switch (op) {
            case SUM -> (int) WORD32.getAndAdd(t, at, v);
            case SWAP -> (int) WORD32.getAndSet(t, at, v);
            case BOR -> (int) WORD32.getAndBitwiseOr(t, at, v);
            case BAND -> (int) WORD32.getAndBitwiseAnd(t, at, v);
            case BXOR -> (int) WORD32.getAndBitwiseXor(t, at, v);
            default -> throw new IllegalArgumentException(op + " is no single instruction");
        };
    }

    /** One element's new value by {@link #apply}'s arithmetic, worked on a scratch copy of {@code old}. */
    private static long step(Op op, Datatype type, long old, MemorySegment d, long doff, MemorySegment operand, long ooff, MemorySegment scratch) {
        if (type.size() == 8) {
            scratch.set(ValueLayout.JAVA_LONG, 0, old);
            apply(op, type, scratch, 0, d, doff, 8, operand, ooff, null, 0);
            return scratch.get(ValueLayout.JAVA_LONG, 0);
        }
        scratch.set(ValueLayout.JAVA_INT, 0, (int) old);
        apply(op, type, scratch, 0, d, doff, 4, operand, ooff, null, 0);
        return scratch.get(ValueLayout.JAVA_INT, 0);
    }

    // ---- integers ---------------------------------------------------------------------------

    /** Reads an integer element, sign- or zero-extended to 64 bits. */
    static long read(Datatype type, MemorySegment m, long off) {
        boolean s = type.kind == Datatype.Kind.SIGNED;
        return switch (type.size()) {
            case 1 -> s ? m.get(I8, off) : m.get(I8, off) & 0xffL;
            case 2 -> s ? m.get(I16, off) : m.get(I16, off) & 0xffffL;
            case 4 -> s ? m.get(I32, off) : m.get(I32, off) & 0xffff_ffffL;
            default -> m.get(I64, off);
        };
    }

    static void write(Datatype type, MemorySegment m, long off, long v) {
        switch (type.size()) {
            case 1 -> m.set(I8, off, (byte) v);
            case 2 -> m.set(I16, off, (short) v);
            case 4 -> m.set(I32, off, (int) v);
            default -> m.set(I64, off, v);
        }
    }

    private static int compare(Datatype type, long a, long b) {
        // 8-, 16- and 32-bit values are sign- or zero-extended already: only 64-bit unsigned needs care
        return type == Datatype.UINT64_T ? Long.compareUnsigned(a, b) : Long.compare(a, b);
    }

    private static void integer(Op op, Datatype type, MemorySegment t, long to, long d, MemorySegment operand, long ooff) {
        long v = read(type, t, to);
        long r = switch (op) {
            case MIN -> compare(type, d, v) < 0 ? d : v;
            case MAX -> compare(type, d, v) > 0 ? d : v;
            case SUM -> v + d;
            case PROD -> v * d;
            case LOR -> (v != 0 || d != 0) ? 1 : 0;
            case LAND -> (v != 0 && d != 0) ? 1 : 0;
            case LXOR -> ((v != 0) ^ (d != 0)) ? 1 : 0;
            case BOR -> v | d;
            case BAND -> v & d;
            case BXOR -> v ^ d;
            case SWAP -> d;
            case CSWAP -> read(type, operand, ooff) == v ? d : v;
            case CSWAP_NE -> read(type, operand, ooff) != v ? d : v;
            case CSWAP_LE -> compare(type, read(type, operand, ooff), v) <= 0 ? d : v;
            case CSWAP_LT -> compare(type, read(type, operand, ooff), v) < 0 ? d : v;
            case CSWAP_GE -> compare(type, read(type, operand, ooff), v) >= 0 ? d : v;
            case CSWAP_GT -> compare(type, read(type, operand, ooff), v) > 0 ? d : v;
            case MSWAP -> {
                long mask = read(type, operand, ooff);
                yield (d & mask) | (v & ~mask);
            }
            case MSK_CSWAP -> maskedCompareSwap(v, operand.get(I64, ooff), operand.get(I64, ooff + 8), d, operand.get(I64, ooff + 16));
            case MFETCH_ADD -> maskedFetchAdd(v, d, operand.get(I64, ooff));
        };
        write(type, t, to, r);
    }

    // ---- seed 004 ---------------------------------------------------------------------------

    /**
     * MskCmpSwap, seed 004: {@code if (!((compare_add ^ *va) & compare_add_mask)) *va = (*va &
     * ~swap_mask) | (swap & swap_mask)}. Answers the new target value (the old one is what the
     * operation returns, {@code atomic_response = *va}).
     */
    static long maskedCompareSwap(long va, long compareAdd, long compareAddMask, long swap, long swapMask) {
        if (((compareAdd ^ va) & compareAddMask) == 0) {
            return (va & ~swapMask) | (swap & swapMask);
        }
        return va;
    }

    /**
     * MFetchAdd, seed 004, as its pseudo-code: a ripple-carry add of {@code compareAdd} to
     * {@code va}, bit 0 to 63, where the carry out of bit i is dropped when bit i of
     * {@code compareAddMask} (the field boundaries) is set. Answers the sum, the new target value.
     */
    static long maskedFetchAdd(long va, long compareAdd, long compareAddMask) {
        long bitPosition = 1;
        int carry = 0;
        long result = 0;
        for (int i = 0; i <= 63; i++) {
            if (i != 0) {
                bitPosition <<= 1;
            }
            int value = carry + maskIsSet(va, bitPosition) + maskIsSet(compareAdd, bitPosition);
            int newCarry = (value & 2) != 0 ? 1 : 0;   // bit_adder's *co = !!(value & 2)
            if ((value & 1) != 0) {                     // bit_adder returns value & 1
                result |= bitPosition;
            }
            carry = (newCarry != 0 && maskIsSet(compareAddMask, bitPosition) == 0) ? 1 : 0;
        }
        return result;
    }

    private static int maskIsSet(long mask, long attr) {
        return (mask & attr) != 0 ? 1 : 0;
    }

    // ---- floating point ---------------------------------------------------------------------

    private static void floating(Op op, MemorySegment t, long to, MemorySegment d, long doff, MemorySegment operand, long ooff, boolean dbl) {
        double v = dbl ? t.get(F64, to) : t.get(F32, to);
        double x = dbl ? d.get(F64, doff) : d.get(F32, doff);
        double c = operand == null ? 0 : dbl ? operand.get(F64, ooff) : operand.get(F32, ooff);
        double r;
        switch (op) {
            case MIN -> r = x < v ? x : v;
            case MAX -> r = x > v ? x : v;
            case SUM -> r = dbl ? v + x : (float) v + (float) x;
            case PROD -> r = dbl ? v * x : (float) v * (float) x;
            case SWAP -> r = x;
            case CSWAP -> r = c == v ? x : v;
            case CSWAP_NE -> r = c != v ? x : v;
            case CSWAP_LE -> r = c <= v ? x : v;
            case CSWAP_LT -> r = c < v ? x : v;
            case CSWAP_GE -> r = c >= v ? x : v;
            case CSWAP_GT -> r = c > v ? x : v;
            default -> throw new IllegalArgumentException(op + " on a floating-point type");
        }
        if (r == v && (op != SUM && op != PROD)) {
            return; // unchanged: keep the exact bits (NaN payloads, -0.0)
        }
        if (dbl) {
            t.set(F64, to, r);
        } else {
            t.set(F32, to, (float) r);
        }
    }

    private static final Op SUM = Op.SUM, PROD = Op.PROD;

    private static void complex(Op op, Datatype type, MemorySegment t, long to, MemorySegment d, long doff, MemorySegment operand, long ooff) {
        if (type == Datatype.LONG_DOUBLE_COMPLEX) {
            LongDouble.applyComplex(op, t, to, d, doff, operand, ooff);
            return;
        }
        boolean dbl = type == Datatype.DOUBLE_COMPLEX;
        int h = dbl ? 8 : 4;
        double a = dbl ? t.get(F64, to) : t.get(F32, to), b = dbl ? t.get(F64, to + h) : t.get(F32, to + h);
        double c = dbl ? d.get(F64, doff) : d.get(F32, doff), e = dbl ? d.get(F64, doff + h) : d.get(F32, doff + h);
        double re, im;
        switch (op) {
            case SUM -> {
                re = dbl ? a + c : (float) a + (float) c;
                im = dbl ? b + e : (float) b + (float) e;
            }
            case PROD -> {
                if (dbl) {
                    re = a * c - b * e;
                    im = a * e + b * c;
                } else {
                    float fa = (float) a, fb = (float) b, fc = (float) c, fe = (float) e;
                    re = fa * fc - fb * fe;
                    im = fa * fe + fb * fc;
                }
            }
            case SWAP -> {
                re = c;
                im = e;
            }
            case CSWAP, CSWAP_NE -> {
                double oa = dbl ? operand.get(F64, ooff) : operand.get(F32, ooff);
                double ob = dbl ? operand.get(F64, ooff + h) : operand.get(F32, ooff + h);
                boolean equal = oa == a && ob == b;
                if (equal != (op == Op.CSWAP)) {
                    return;
                }
                re = c;
                im = e;
            }
            default -> throw new IllegalArgumentException(op + " on the complex type " + type);
        }
        if (dbl) {
            t.set(F64, to, re);
            t.set(F64, to + h, im);
        } else {
            t.set(F32, to, (float) re);
            t.set(F32, to + h, (float) im);
        }
    }
}
