package dev.ferry.portals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;

/**
 * x86's 80-bit extended precision ({@code long double} on x86-64), which Java has no type for:
 * decoded exactly (value = mantissa x 2^exponent), computed exactly with big integers, and
 * rounded once to the nearest 64-bit significand (ties to even), as the FPU would for one
 * operation. Layout in its 16 bytes: bytes 0..7 the significand with its explicit integer bit
 * (bit 63), bytes 8..9 the sign (bit 15) and the biased exponent (15 bits, bias 16383), bytes
 * 10..15 padding, left untouched.
 *
 * <pre>{@code
 * LongDouble.apply(Op.SUM, target, 0, operands, 0, null, 0);
 * }</pre>
 */
final class LongDouble {
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final int BIAS = 16383;
    private static final int MAX_EXP = 0x7fff;
    /** The exponent of the least significant bit of a denormal: 2^(1 - 16383 - 63). */
    private static final int MIN_LSB_EXP = 1 - BIAS - 63;

    /** A decoded value: NaN, an infinity, or sign x mantissa x 2^exp (mantissa >= 0). */
    record Value(boolean nan, boolean inf, boolean negative, BigInteger mantissa, int exp) {
        boolean isZero() {
            return !nan && !inf && mantissa.signum() == 0;
        }

        BigInteger signed() {
            return negative ? mantissa.negate() : mantissa;
        }
    }

    private LongDouble() {
    }

    static Value read(MemorySegment m, long off) {
        long significand = m.get(I64, off);
        int se = m.get(I16, off + 8) & 0xffff;
        boolean negative = (se & 0x8000) != 0;
        int e = se & MAX_EXP;
        BigInteger mant = new BigInteger(Long.toUnsignedString(significand));
        if (e == MAX_EXP) {
            boolean inf = (significand << 1) == 0; // only the integer bit set (or pseudo-infinity)
            return new Value(!inf, inf, negative, BigInteger.ZERO, 0);
        }
        int exp = e == 0 ? MIN_LSB_EXP : e - BIAS - 63;
        return new Value(false, false, negative, mant, exp);
    }

    static void write(MemorySegment m, long off, Value v) {
        long significand;
        int e;
        if (v.nan) {
            significand = 0xC000_0000_0000_0000L; // the default quiet NaN
            e = MAX_EXP;
        } else if (v.inf) {
            significand = 0x8000_0000_0000_0000L;
            e = MAX_EXP;
        } else if (v.mantissa.signum() == 0) {
            significand = 0;
            e = 0;
        } else {
            BigInteger mant = v.mantissa;
            int exp = v.exp;
            int shift = mant.bitLength() - 64;
            if (shift > 0) {
                mant = roundShift(mant, shift);
                exp += shift;
                if (mant.bitLength() > 64) {
                    mant = mant.shiftRight(1);
                    exp++;
                }
            } else if (shift < 0) {
                mant = mant.shiftLeft(-shift);
                exp += shift;
            }
            // now mant has exactly 64 bits: value = mant x 2^exp, biased exponent = exp + 63 + BIAS
            int biased = exp + 63 + BIAS;
            if (biased >= MAX_EXP) {
                write(m, off, new Value(false, true, v.negative, BigInteger.ZERO, 0));
                return;
            }
            if (biased <= 0) {
                // denormal: express over 2^MIN_LSB_EXP, rounding what falls off
                BigInteger den = roundShift(v.mantissa.shiftLeft(Math.max(0, v.exp - MIN_LSB_EXP)), Math.max(0, MIN_LSB_EXP - v.exp));
                significand = den.longValue();
                e = den.bitLength() > 63 ? 1 : 0; // rounded up into the normal range
            } else {
                significand = mant.longValue();
                e = biased;
            }
        }
        m.set(I64, off, significand);
        m.set(I16, off + 8, (short) ((v.negative && !v.nan ? 0x8000 : 0) | e));
    }

    /** {@code x >> n}, rounded to nearest, ties to even. */
    private static BigInteger roundShift(BigInteger x, int n) {
        if (n <= 0) {
            return x;
        }
        BigInteger q = x.shiftRight(n);
        boolean half = x.testBit(n - 1);
        boolean rest = x.getLowestSetBit() < n - 1 && x.signum() != 0;
        if (half && (rest || q.testBit(0))) {
            q = q.add(BigInteger.ONE);
        }
        return q;
    }

    private static Value of(BigInteger signed, int exp) {
        return new Value(false, false, signed.signum() < 0, signed.abs(), exp);
    }

    static Value add(Value a, Value b) {
        if (a.nan || b.nan || (a.inf && b.inf && a.negative != b.negative)) {
            return new Value(true, false, false, BigInteger.ZERO, 0);
        }
        if (a.inf) {
            return a;
        }
        if (b.inf) {
            return b;
        }
        int e = Math.min(a.exp, b.exp);
        BigInteger s = a.signed().shiftLeft(a.exp - e).add(b.signed().shiftLeft(b.exp - e));
        if (s.signum() == 0) {
            return new Value(false, false, a.negative && b.negative, BigInteger.ZERO, 0);
        }
        return of(s, e);
    }

    static Value multiply(Value a, Value b) {
        boolean negative = a.negative != b.negative;
        if (a.nan || b.nan || (a.inf && b.isZero()) || (b.inf && a.isZero())) {
            return new Value(true, false, false, BigInteger.ZERO, 0);
        }
        if (a.inf || b.inf) {
            return new Value(false, true, negative, BigInteger.ZERO, 0);
        }
        return new Value(false, false, negative, a.mantissa.multiply(b.mantissa), a.exp + b.exp);
    }

    static Value subtract(Value a, Value b) {
        return add(a, new Value(b.nan, b.inf, !b.negative, b.mantissa, b.exp));
    }

    /** Like Double.compare on ordered values; NaN is unordered (answers null). */
    static Integer compare(Value a, Value b) {
        if (a.nan || b.nan) {
            return null;
        }
        if (a.inf || b.inf) {
            int x = a.inf ? (a.negative ? -1 : 1) : 0;
            int y = b.inf ? (b.negative ? -1 : 1) : 0;
            if (x != y) {
                return Integer.compare(x, y);
            }
            if (x != 0) {
                return 0;
            }
        }
        int e = Math.min(a.exp, b.exp);
        return a.signed().shiftLeft(a.exp - e).compareTo(b.signed().shiftLeft(b.exp - e));
    }

    private static boolean holds(Op op, Integer c) {
        if (c == null) {
            return op == Op.CSWAP_NE; // NaN: only "not equal" holds
        }
        return switch (op) {
            case CSWAP -> c == 0;
            case CSWAP_NE -> c != 0;
            case CSWAP_LE -> c <= 0;
            case CSWAP_LT -> c < 0;
            case CSWAP_GE -> c >= 0;
            case CSWAP_GT -> c > 0;
            default -> false;
        };
    }

    /** One long double element: {@code t[to] = op(t[to], d[doff])}. */
    static void apply(Op op, MemorySegment t, long to, MemorySegment d, long doff, MemorySegment operand, long ooff) {
        Value v = read(t, to);
        Value x = read(d, doff);
        Value r;
        switch (op) {
            case MIN -> r = Boolean.TRUE.equals(lt(x, v)) ? x : null;
            case MAX -> r = Boolean.TRUE.equals(lt(v, x)) ? x : null;
            case SUM -> r = add(v, x);
            case PROD -> r = multiply(v, x);
            case SWAP -> r = x;
            case CSWAP, CSWAP_NE, CSWAP_LE, CSWAP_LT, CSWAP_GE, CSWAP_GT -> r = holds(op, compare(read(operand, ooff), v)) ? x : null;
            default -> throw new IllegalArgumentException(op + " on LONG_DOUBLE");
        }
        if (r == x) {
            MemorySegment.copy(d, doff, t, to, 10); // the operand as it is, bit for bit
        } else if (r != null) {
            write(t, to, r);
        }
    }

    private static Boolean lt(Value a, Value b) {
        Integer c = compare(a, b);
        return c == null ? null : c < 0;
    }

    /** One long double complex element (two long doubles: real, imaginary). */
    static void applyComplex(Op op, MemorySegment t, long to, MemorySegment d, long doff, MemorySegment operand, long ooff) {
        Value a = read(t, to), b = read(t, to + 16), c = read(d, doff), e = read(d, doff + 16);
        switch (op) {
            case SUM -> {
                write(t, to, add(a, c));
                write(t, to + 16, add(b, e));
            }
            case PROD -> {
                write(t, to, subtract(multiply(a, c), multiply(b, e)));
                write(t, to + 16, add(multiply(a, e), multiply(b, c)));
            }
            case SWAP -> MemorySegment.copy(d, doff, t, to, 32);
            case CSWAP, CSWAP_NE -> {
                Integer re = compare(read(operand, ooff), a), im = compare(read(operand, ooff + 16), b);
                boolean equal = re != null && im != null && re == 0 && im == 0;
                if (equal == (op == Op.CSWAP)) {
                    MemorySegment.copy(d, doff, t, to, 32);
                }
            }
            default -> throw new IllegalArgumentException(op + " on LONG_DOUBLE_COMPLEX");
        }
    }
}
