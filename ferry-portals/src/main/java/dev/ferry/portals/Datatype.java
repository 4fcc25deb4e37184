package dev.ferry.portals;

/**
 * ptl_datatype_t: the element type of an atomic operation, with its size in bytes. Values are
 * in the machine's byte order (little-endian here), as Portals moves them. {@code LONG_DOUBLE}
 * is x86's 80-bit extended format stored in 16 bytes, as C's {@code long double} on x86-64.
 *
 * <pre>{@code
 * fetchAtomic(getMd, 0, putMd, 0, 8, target, pt, 0, 0, null, 0, Op.SUM, Datatype.INT64_T);
 * }</pre>
 */
public enum Datatype {
    INT8_T(1, Kind.SIGNED),
    UINT8_T(1, Kind.UNSIGNED),
    INT16_T(2, Kind.SIGNED),
    UINT16_T(2, Kind.UNSIGNED),
    INT32_T(4, Kind.SIGNED),
    UINT32_T(4, Kind.UNSIGNED),
    INT64_T(8, Kind.SIGNED),
    UINT64_T(8, Kind.UNSIGNED),
    FLOAT(4, Kind.FLOAT),
    FLOAT_COMPLEX(8, Kind.COMPLEX),
    DOUBLE(8, Kind.FLOAT),
    DOUBLE_COMPLEX(16, Kind.COMPLEX),
    LONG_DOUBLE(16, Kind.FLOAT),
    LONG_DOUBLE_COMPLEX(32, Kind.COMPLEX);

    enum Kind { SIGNED, UNSIGNED, FLOAT, COMPLEX }

    private final int size;
    final Kind kind;

    Datatype(int size, Kind kind) {
        if (Integer.bitCount(size) != 1) {
            throw new AssertionError("element sizes are powers of two: the masks below rely on it");
        }
        this.size = size;
        this.kind = kind;
    }

    /** The size of one element in bytes. */
    public int size() {
        return size;
    }

    /**
     * The most bytes of whole elements in {@code bytes} (not negative): a mask, since sizes are
     * powers of two (a 64-bit division costs tens of cycles on an operation's path).
     */
    public long wholeElements(long bytes) {
        return bytes & -(long) size;
    }

    /** Whether {@code n} (a length, or an address) is a multiple of the element size. */
    public boolean divides(long n) {
        return (n & (size - 1)) == 0;
    }

    /** Whether this is one of the integer types (the logical, bitwise and MSWAP operations need one). */
    public boolean isInteger() {
        return kind == Kind.SIGNED || kind == Kind.UNSIGNED;
    }

    /** Whether this is a complex type (no ordering: MIN, MAX and the ordered CSWAPs refuse it). */
    public boolean isComplex() {
        return kind == Kind.COMPLEX;
    }

    private static final Datatype[] VALUES = values();

    /** The constant at wire index {@code i}, or null when there is none (a malformed header). */
    static Datatype fromWire(int i) {
        return PtlWire.code(VALUES, i);
    }
}
