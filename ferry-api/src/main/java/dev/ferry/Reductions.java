package dev.ferry;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.*;

/**
 * The predefined reduction operations on packed elements of one primitive kind:
 * {@code inout[i] = in[i] op inout[i]}. One loop per operation and kind, so that each is a plain
 * counted loop the JIT compiles well (a lambda per element would not be inlined across the
 * operations). Generated from one template; the operand order matters only to floating point and
 * is kept the same everywhere, so results are bit-identical wherever the same operands meet.
 * The integral kinds' loops are in {@link IntegerReductions}; the floating-point ones and the
 * MINLOC / MAXLOC pairs are here.
 */
final class Reductions {
    private Reductions() {
    }

    /**
     * Fewer elements than this go element by element ({@link #few}): C2 sizes a loop by the trip
     * counts it has seen, and after a program's millions of one-element reductions the same
     * loop over 1 MiB of doubles ran 1.6x slower (104 against 64 us). The loops below see only
     * runs this long or longer.
     */
    static final long FEW = 16;

    /** Applies {@code op} to {@code n} elements of the primitive {@code kind} (its array class). */
    static void apply(Op.Code op, Class<?> kind, MemorySegment in, MemorySegment inout, long n) {
        if (n < FEW) {
            few(op, kind, in, inout, n);
        } else if (kind == int[].class) {
            IntegerReductions.ints(op, in, inout, n);
        } else if (kind == double[].class) {
            doubles(op, in, inout, n);
        } else if (kind == long[].class) {
            IntegerReductions.longs(op, in, inout, n);
        } else if (kind == float[].class) {
            floats(op, in, inout, n);
        } else if (kind == byte[].class) {
            IntegerReductions.bytes(op, in, inout, n);
        } else if (kind == short[].class) {
            IntegerReductions.shorts(op, in, inout, n);
        } else if (kind == char[].class) {
            IntegerReductions.chars(op, in, inout, n);
        } else {
            throw new IllegalArgumentException("no primitive kind: " + kind);
        }
    }

    /**
     * {@link #apply} one element at a time: the same operand order and arithmetic as the loops
     * (integral kinds in {@code long}, whose low bits are those of Java's narrower arithmetic;
     * char read unsigned, the others signed), so the same bits.
     */
    static void few(Op.Code op, Class<?> kind, MemorySegment a, MemorySegment b, long n) {
        for (long i = 0; i < n; i++) {
            if (kind == double[].class) {
                long o = i * 8;
                double x = a.get(JAVA_DOUBLE_UNALIGNED, o), y = b.get(JAVA_DOUBLE_UNALIGNED, o);
                b.set(JAVA_DOUBLE_UNALIGNED, o, switch (op) {
                    case SUM -> x + y;
                    case PROD -> x * y;
                    case MIN -> Math.min(x, y);
                    case MAX -> Math.max(x, y);
                    default -> throw new IllegalArgumentException(op + " on double");
                });
            } else if (kind == float[].class) {
                long o = i * 4;
                float x = a.get(JAVA_FLOAT_UNALIGNED, o), y = b.get(JAVA_FLOAT_UNALIGNED, o);
                b.set(JAVA_FLOAT_UNALIGNED, o, switch (op) {
                    case SUM -> x + y;
                    case PROD -> x * y;
                    case MIN -> Math.min(x, y);
                    case MAX -> Math.max(x, y);
                    default -> throw new IllegalArgumentException(op + " on float");
                });
            } else {
                long x = integral(kind, a, i), y = integral(kind, b, i);
                long r = switch (op) {
                    case SUM -> x + y;
                    case PROD -> x * y;
                    case MIN -> x <= y ? x : y;
                    case MAX -> x >= y ? x : y;
                    case LAND -> x != 0 && y != 0 ? 1 : 0;
                    case LOR -> x != 0 || y != 0 ? 1 : 0;
                    case LXOR -> (x != 0) != (y != 0) ? 1 : 0;
                    case BAND -> x & y;
                    case BOR -> x | y;
                    case BXOR -> x ^ y;
                    default -> throw new IllegalArgumentException(op + " on " + kind.getComponentType());
                };
                putIntegral(kind, b, i, r);
            }
        }
    }

    private static long integral(Class<?> kind, MemorySegment m, long i) {
        if (kind == int[].class) {
            return m.get(JAVA_INT_UNALIGNED, i * 4);
        } else if (kind == long[].class) {
            return m.get(JAVA_LONG_UNALIGNED, i * 8);
        } else if (kind == byte[].class) {
            return m.get(JAVA_BYTE, i);
        } else if (kind == short[].class) {
            return m.get(JAVA_SHORT_UNALIGNED, i * 2);
        } else if (kind == char[].class) {
            return m.get(JAVA_CHAR_UNALIGNED, i * 2);
        }
        throw new IllegalArgumentException("no primitive kind: " + kind);
    }

    private static void putIntegral(Class<?> kind, MemorySegment m, long i, long v) {
        if (kind == int[].class) {
            m.set(JAVA_INT_UNALIGNED, i * 4, (int) v);
        } else if (kind == long[].class) {
            m.set(JAVA_LONG_UNALIGNED, i * 8, v);
        } else if (kind == byte[].class) {
            m.set(JAVA_BYTE, i, (byte) v);
        } else if (kind == short[].class) {
            m.set(JAVA_SHORT_UNALIGNED, i * 2, (short) v);
        } else {
            m.set(JAVA_CHAR_UNALIGNED, i * 2, (char) v);
        }
    }

    /** Whether {@code op} is defined on the primitive {@code kind}. */
    static boolean defined(Op.Code op, Class<?> kind) {
        boolean floating = kind == float[].class || kind == double[].class;
        return switch (op) {
            case SUM, PROD, MIN, MAX -> true;
            case LAND, LOR, LXOR, BAND, BOR, BXOR -> !floating;
            case MINLOC, MAXLOC, REPLACE, NO_OP -> false;
        };
    }

    private static void floats(Op.Code op, MemorySegment a, MemorySegment b, long n) {
        switch (op) {
            case SUM -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 4;
                    float x = a.get(JAVA_FLOAT_UNALIGNED, o), y = b.get(JAVA_FLOAT_UNALIGNED, o);
                    b.set(JAVA_FLOAT_UNALIGNED, o, (x + y));
                }
            }
            case PROD -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 4;
                    float x = a.get(JAVA_FLOAT_UNALIGNED, o), y = b.get(JAVA_FLOAT_UNALIGNED, o);
                    b.set(JAVA_FLOAT_UNALIGNED, o, (x * y));
                }
            }
            case MIN -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 4;
                    float x = a.get(JAVA_FLOAT_UNALIGNED, o), y = b.get(JAVA_FLOAT_UNALIGNED, o);
                    b.set(JAVA_FLOAT_UNALIGNED, o, Math.min(x, y));
                }
            }
            case MAX -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 4;
                    float x = a.get(JAVA_FLOAT_UNALIGNED, o), y = b.get(JAVA_FLOAT_UNALIGNED, o);
                    b.set(JAVA_FLOAT_UNALIGNED, o, Math.max(x, y));
                }
            }
            default -> throw new IllegalArgumentException(op + " on float");
        }
    }

    private static void doubles(Op.Code op, MemorySegment a, MemorySegment b, long n) {
        switch (op) {
            case SUM -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 8;
                    double x = a.get(JAVA_DOUBLE_UNALIGNED, o), y = b.get(JAVA_DOUBLE_UNALIGNED, o);
                    b.set(JAVA_DOUBLE_UNALIGNED, o, (x + y));
                }
            }
            case PROD -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 8;
                    double x = a.get(JAVA_DOUBLE_UNALIGNED, o), y = b.get(JAVA_DOUBLE_UNALIGNED, o);
                    b.set(JAVA_DOUBLE_UNALIGNED, o, (x * y));
                }
            }
            case MIN -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 8;
                    double x = a.get(JAVA_DOUBLE_UNALIGNED, o), y = b.get(JAVA_DOUBLE_UNALIGNED, o);
                    b.set(JAVA_DOUBLE_UNALIGNED, o, Math.min(x, y));
                }
            }
            case MAX -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 8;
                    double x = a.get(JAVA_DOUBLE_UNALIGNED, o), y = b.get(JAVA_DOUBLE_UNALIGNED, o);
                    b.set(JAVA_DOUBLE_UNALIGNED, o, Math.max(x, y));
                }
            }
            default -> throw new IllegalArgumentException(op + " on double");
        }
    }

    /**
     * MINLOC or MAXLOC on packed value-and-index pairs of {@code type}: the smaller (larger) value
     * wins, with its index; on equal values the smaller index.
     */
    static void pairs(boolean max, Datatype type, MemorySegment a, MemorySegment b, long n) {
        Datatype v = type.pairValue, x = type.pairIndex;
        long stride = v.size + x.size;
        boolean floating = v == Datatype.FLOAT || v == Datatype.DOUBLE;
        for (long i = 0; i < n; i++) {
            long o = i * stride;
            int c = floating ? Double.compare(fp(v, a, o), fp(v, b, o)) : Long.compare(integer(v, a, o), integer(v, b, o));
            if (c == 0) {
                if (compareIndex(x, a, b, o + v.size) < 0) {
                    MemorySegment.copy(a, o + v.size, b, o + v.size, x.size);
                }
            } else if (max == c > 0) {
                MemorySegment.copy(a, o, b, o, stride);
            }
        }
    }

    private static int compareIndex(Datatype x, MemorySegment a, MemorySegment b, long o) {
        boolean floating = x == Datatype.FLOAT || x == Datatype.DOUBLE;
        return floating ? Double.compare(fp(x, a, o), fp(x, b, o)) : Long.compare(integer(x, a, o), integer(x, b, o));
    }

    private static long integer(Datatype t, MemorySegment m, long o) {
        return t == Datatype.INT ? m.get(JAVA_INT_UNALIGNED, o)
                : t == Datatype.LONG ? m.get(JAVA_LONG_UNALIGNED, o)
                : m.get(JAVA_SHORT_UNALIGNED, o);
    }

    private static double fp(Datatype t, MemorySegment m, long o) {
        return t == Datatype.DOUBLE ? m.get(JAVA_DOUBLE_UNALIGNED, o) : m.get(JAVA_FLOAT_UNALIGNED, o);
    }
}
