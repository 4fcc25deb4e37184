package dev.ferry;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.*;

/**
 * The loops of the predefined reductions on the integral kinds (byte, short, char, int, long):
 * {@code b[i] = a[i] op b[i]}, one counted loop per operation and kind, for {@link Reductions},
 * which picks them. Generated from the same template as the floating-point loops.
 */
final class IntegerReductions {
    private IntegerReductions() {
    }

    static void bytes(Op.Code op, MemorySegment a, MemorySegment b, long n) {
        switch (op) {
            case SUM -> {
                for (long i = 0; i < n; i++) {
                    long o = i;
                    byte x = a.get(JAVA_BYTE, o), y = b.get(JAVA_BYTE, o);
                    b.set(JAVA_BYTE, o, (byte) (x + y));
                }
            }
            case PROD -> {
                for (long i = 0; i < n; i++) {
                    long o = i;
                    byte x = a.get(JAVA_BYTE, o), y = b.get(JAVA_BYTE, o);
                    b.set(JAVA_BYTE, o, (byte) (x * y));
                }
            }
            case MIN -> {
                for (long i = 0; i < n; i++) {
                    long o = i;
                    byte x = a.get(JAVA_BYTE, o), y = b.get(JAVA_BYTE, o);
                    b.set(JAVA_BYTE, o, (x <= y ? x : y));
                }
            }
            case MAX -> {
                for (long i = 0; i < n; i++) {
                    long o = i;
                    byte x = a.get(JAVA_BYTE, o), y = b.get(JAVA_BYTE, o);
                    b.set(JAVA_BYTE, o, (x >= y ? x : y));
                }
            }
            case LAND -> {
                for (long i = 0; i < n; i++) {
                    long o = i;
                    byte x = a.get(JAVA_BYTE, o), y = b.get(JAVA_BYTE, o);
                    b.set(JAVA_BYTE, o, (x != 0 && y != 0 ? (byte) 1 : (byte) 0));
                }
            }
            case LOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i;
                    byte x = a.get(JAVA_BYTE, o), y = b.get(JAVA_BYTE, o);
                    b.set(JAVA_BYTE, o, (x != 0 || y != 0 ? (byte) 1 : (byte) 0));
                }
            }
            case LXOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i;
                    byte x = a.get(JAVA_BYTE, o), y = b.get(JAVA_BYTE, o);
                    b.set(JAVA_BYTE, o, ((x != 0) != (y != 0) ? (byte) 1 : (byte) 0));
                }
            }
            case BAND -> {
                for (long i = 0; i < n; i++) {
                    long o = i;
                    byte x = a.get(JAVA_BYTE, o), y = b.get(JAVA_BYTE, o);
                    b.set(JAVA_BYTE, o, (byte) (x & y));
                }
            }
            case BOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i;
                    byte x = a.get(JAVA_BYTE, o), y = b.get(JAVA_BYTE, o);
                    b.set(JAVA_BYTE, o, (byte) (x | y));
                }
            }
            case BXOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i;
                    byte x = a.get(JAVA_BYTE, o), y = b.get(JAVA_BYTE, o);
                    b.set(JAVA_BYTE, o, (byte) (x ^ y));
                }
            }
            default -> throw new IllegalArgumentException(op + " on byte");
        }
    }

    static void shorts(Op.Code op, MemorySegment a, MemorySegment b, long n) {
        switch (op) {
            case SUM -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    short x = a.get(JAVA_SHORT_UNALIGNED, o), y = b.get(JAVA_SHORT_UNALIGNED, o);
                    b.set(JAVA_SHORT_UNALIGNED, o, (short) (x + y));
                }
            }
            case PROD -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    short x = a.get(JAVA_SHORT_UNALIGNED, o), y = b.get(JAVA_SHORT_UNALIGNED, o);
                    b.set(JAVA_SHORT_UNALIGNED, o, (short) (x * y));
                }
            }
            case MIN -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    short x = a.get(JAVA_SHORT_UNALIGNED, o), y = b.get(JAVA_SHORT_UNALIGNED, o);
                    b.set(JAVA_SHORT_UNALIGNED, o, (x <= y ? x : y));
                }
            }
            case MAX -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    short x = a.get(JAVA_SHORT_UNALIGNED, o), y = b.get(JAVA_SHORT_UNALIGNED, o);
                    b.set(JAVA_SHORT_UNALIGNED, o, (x >= y ? x : y));
                }
            }
            case LAND -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    short x = a.get(JAVA_SHORT_UNALIGNED, o), y = b.get(JAVA_SHORT_UNALIGNED, o);
                    b.set(JAVA_SHORT_UNALIGNED, o, (x != 0 && y != 0 ? (short) 1 : (short) 0));
                }
            }
            case LOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    short x = a.get(JAVA_SHORT_UNALIGNED, o), y = b.get(JAVA_SHORT_UNALIGNED, o);
                    b.set(JAVA_SHORT_UNALIGNED, o, (x != 0 || y != 0 ? (short) 1 : (short) 0));
                }
            }
            case LXOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    short x = a.get(JAVA_SHORT_UNALIGNED, o), y = b.get(JAVA_SHORT_UNALIGNED, o);
                    b.set(JAVA_SHORT_UNALIGNED, o, ((x != 0) != (y != 0) ? (short) 1 : (short) 0));
                }
            }
            case BAND -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    short x = a.get(JAVA_SHORT_UNALIGNED, o), y = b.get(JAVA_SHORT_UNALIGNED, o);
                    b.set(JAVA_SHORT_UNALIGNED, o, (short) (x & y));
                }
            }
            case BOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    short x = a.get(JAVA_SHORT_UNALIGNED, o), y = b.get(JAVA_SHORT_UNALIGNED, o);
                    b.set(JAVA_SHORT_UNALIGNED, o, (short) (x | y));
                }
            }
            case BXOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    short x = a.get(JAVA_SHORT_UNALIGNED, o), y = b.get(JAVA_SHORT_UNALIGNED, o);
                    b.set(JAVA_SHORT_UNALIGNED, o, (short) (x ^ y));
                }
            }
            default -> throw new IllegalArgumentException(op + " on short");
        }
    }

    static void chars(Op.Code op, MemorySegment a, MemorySegment b, long n) {
        switch (op) {
            case SUM -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    char x = a.get(JAVA_CHAR_UNALIGNED, o), y = b.get(JAVA_CHAR_UNALIGNED, o);
                    b.set(JAVA_CHAR_UNALIGNED, o, (char) (x + y));
                }
            }
            case PROD -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    char x = a.get(JAVA_CHAR_UNALIGNED, o), y = b.get(JAVA_CHAR_UNALIGNED, o);
                    b.set(JAVA_CHAR_UNALIGNED, o, (char) (x * y));
                }
            }
            case MIN -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    char x = a.get(JAVA_CHAR_UNALIGNED, o), y = b.get(JAVA_CHAR_UNALIGNED, o);
                    b.set(JAVA_CHAR_UNALIGNED, o, (x <= y ? x : y));
                }
            }
            case MAX -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    char x = a.get(JAVA_CHAR_UNALIGNED, o), y = b.get(JAVA_CHAR_UNALIGNED, o);
                    b.set(JAVA_CHAR_UNALIGNED, o, (x >= y ? x : y));
                }
            }
            case LAND -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    char x = a.get(JAVA_CHAR_UNALIGNED, o), y = b.get(JAVA_CHAR_UNALIGNED, o);
                    b.set(JAVA_CHAR_UNALIGNED, o, (x != 0 && y != 0 ? (char) 1 : (char) 0));
                }
            }
            case LOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    char x = a.get(JAVA_CHAR_UNALIGNED, o), y = b.get(JAVA_CHAR_UNALIGNED, o);
                    b.set(JAVA_CHAR_UNALIGNED, o, (x != 0 || y != 0 ? (char) 1 : (char) 0));
                }
            }
            case LXOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    char x = a.get(JAVA_CHAR_UNALIGNED, o), y = b.get(JAVA_CHAR_UNALIGNED, o);
                    b.set(JAVA_CHAR_UNALIGNED, o, ((x != 0) != (y != 0) ? (char) 1 : (char) 0));
                }
            }
            case BAND -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    char x = a.get(JAVA_CHAR_UNALIGNED, o), y = b.get(JAVA_CHAR_UNALIGNED, o);
                    b.set(JAVA_CHAR_UNALIGNED, o, (char) (x & y));
                }
            }
            case BOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    char x = a.get(JAVA_CHAR_UNALIGNED, o), y = b.get(JAVA_CHAR_UNALIGNED, o);
                    b.set(JAVA_CHAR_UNALIGNED, o, (char) (x | y));
                }
            }
            case BXOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 2;
                    char x = a.get(JAVA_CHAR_UNALIGNED, o), y = b.get(JAVA_CHAR_UNALIGNED, o);
                    b.set(JAVA_CHAR_UNALIGNED, o, (char) (x ^ y));
                }
            }
            default -> throw new IllegalArgumentException(op + " on char");
        }
    }

    static void ints(Op.Code op, MemorySegment a, MemorySegment b, long n) {
        switch (op) {
            case SUM -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 4;
                    int x = a.get(JAVA_INT_UNALIGNED, o), y = b.get(JAVA_INT_UNALIGNED, o);
                    b.set(JAVA_INT_UNALIGNED, o, (x + y));
                }
            }
            case PROD -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 4;
                    int x = a.get(JAVA_INT_UNALIGNED, o), y = b.get(JAVA_INT_UNALIGNED, o);
                    b.set(JAVA_INT_UNALIGNED, o, (x * y));
                }
            }
            case MIN -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 4;
                    int x = a.get(JAVA_INT_UNALIGNED, o), y = b.get(JAVA_INT_UNALIGNED, o);
                    b.set(JAVA_INT_UNALIGNED, o, (x <= y ? x : y));
                }
            }
            case MAX -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 4;
                    int x = a.get(JAVA_INT_UNALIGNED, o), y = b.get(JAVA_INT_UNALIGNED, o);
                    b.set(JAVA_INT_UNALIGNED, o, (x >= y ? x : y));
                }
            }
            case LAND -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 4;
                    int x = a.get(JAVA_INT_UNALIGNED, o), y = b.get(JAVA_INT_UNALIGNED, o);
                    b.set(JAVA_INT_UNALIGNED, o, (x != 0 && y != 0 ? 1 : 0));
                }
            }
            case LOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 4;
                    int x = a.get(JAVA_INT_UNALIGNED, o), y = b.get(JAVA_INT_UNALIGNED, o);
                    b.set(JAVA_INT_UNALIGNED, o, (x != 0 || y != 0 ? 1 : 0));
                }
            }
            case LXOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 4;
                    int x = a.get(JAVA_INT_UNALIGNED, o), y = b.get(JAVA_INT_UNALIGNED, o);
                    b.set(JAVA_INT_UNALIGNED, o, ((x != 0) != (y != 0) ? 1 : 0));
                }
            }
            case BAND -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 4;
                    int x = a.get(JAVA_INT_UNALIGNED, o), y = b.get(JAVA_INT_UNALIGNED, o);
                    b.set(JAVA_INT_UNALIGNED, o, (x & y));
                }
            }
            case BOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 4;
                    int x = a.get(JAVA_INT_UNALIGNED, o), y = b.get(JAVA_INT_UNALIGNED, o);
                    b.set(JAVA_INT_UNALIGNED, o, (x | y));
                }
            }
            case BXOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 4;
                    int x = a.get(JAVA_INT_UNALIGNED, o), y = b.get(JAVA_INT_UNALIGNED, o);
                    b.set(JAVA_INT_UNALIGNED, o, (x ^ y));
                }
            }
            default -> throw new IllegalArgumentException(op + " on int");
        }
    }

    static void longs(Op.Code op, MemorySegment a, MemorySegment b, long n) {
        switch (op) {
            case SUM -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 8;
                    long x = a.get(JAVA_LONG_UNALIGNED, o), y = b.get(JAVA_LONG_UNALIGNED, o);
                    b.set(JAVA_LONG_UNALIGNED, o, (x + y));
                }
            }
            case PROD -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 8;
                    long x = a.get(JAVA_LONG_UNALIGNED, o), y = b.get(JAVA_LONG_UNALIGNED, o);
                    b.set(JAVA_LONG_UNALIGNED, o, (x * y));
                }
            }
            case MIN -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 8;
                    long x = a.get(JAVA_LONG_UNALIGNED, o), y = b.get(JAVA_LONG_UNALIGNED, o);
                    b.set(JAVA_LONG_UNALIGNED, o, (x <= y ? x : y));
                }
            }
            case MAX -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 8;
                    long x = a.get(JAVA_LONG_UNALIGNED, o), y = b.get(JAVA_LONG_UNALIGNED, o);
                    b.set(JAVA_LONG_UNALIGNED, o, (x >= y ? x : y));
                }
            }
            case LAND -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 8;
                    long x = a.get(JAVA_LONG_UNALIGNED, o), y = b.get(JAVA_LONG_UNALIGNED, o);
                    b.set(JAVA_LONG_UNALIGNED, o, (x != 0 && y != 0 ? 1L : 0L));
                }
            }
            case LOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 8;
                    long x = a.get(JAVA_LONG_UNALIGNED, o), y = b.get(JAVA_LONG_UNALIGNED, o);
                    b.set(JAVA_LONG_UNALIGNED, o, (x != 0 || y != 0 ? 1L : 0L));
                }
            }
            case LXOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 8;
                    long x = a.get(JAVA_LONG_UNALIGNED, o), y = b.get(JAVA_LONG_UNALIGNED, o);
                    b.set(JAVA_LONG_UNALIGNED, o, ((x != 0) != (y != 0) ? 1L : 0L));
                }
            }
            case BAND -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 8;
                    long x = a.get(JAVA_LONG_UNALIGNED, o), y = b.get(JAVA_LONG_UNALIGNED, o);
                    b.set(JAVA_LONG_UNALIGNED, o, (x & y));
                }
            }
            case BOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 8;
                    long x = a.get(JAVA_LONG_UNALIGNED, o), y = b.get(JAVA_LONG_UNALIGNED, o);
                    b.set(JAVA_LONG_UNALIGNED, o, (x | y));
                }
            }
            case BXOR -> {
                for (long i = 0; i < n; i++) {
                    long o = i * 8;
                    long x = a.get(JAVA_LONG_UNALIGNED, o), y = b.get(JAVA_LONG_UNALIGNED, o);
                    b.set(JAVA_LONG_UNALIGNED, o, (x ^ y));
                }
            }
            default -> throw new IllegalArgumentException(op + " on long");
        }
    }
}
