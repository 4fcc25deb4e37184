package dev.ferry.portals;

import dev.ferry.core.engine.Engine;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.IoVec;

import java.lang.foreign.MemorySegment;

/**
 * The memory of an MD, ME or LE as the library sees it: one contiguous range, or the elements of
 * an IOVEC list taken as one virtually contiguous range (the specification's rule). Offsets are
 * into that range; the caller has checked them against {@link #length()}.
 *
 * <pre>{@code
 * Region r = Region.of(md.start, md.length, md.iovecs, md.options);
 * r.copyIn(16, payload, 64, 100);
 * }</pre>
 */
final class Region {
    private final MemorySegment[] parts;
    private final long length;

    private Region(MemorySegment[] parts, long length) {
        this.parts = parts;
        this.length = length;
    }

    static final Region EMPTY = new Region(new MemorySegment[0], 0);

    /** The region of a structure; throws ARG_INVALID when it does not describe valid memory. */
    static Region of(String what, MemorySegment start, long length, Iovec[] iovecs, boolean iovec, int maxIovecs) {
        if (iovec) {
            if (iovecs == null || length < 0 || length > iovecs.length) {
                throw new PtlException(ReturnCode.ARG_INVALID, what + ": with IOVEC, iovecs must hold length (" + length + ") elements");
            }
            if (length > maxIovecs) {
                throw new PtlException(ReturnCode.ARG_INVALID, what + ": " + length + " iovecs, more than max_iovecs " + maxIovecs);
            }
            MemorySegment[] p = new MemorySegment[(int) length];
            long total = 0;
            for (int i = 0; i < length; i++) {
                Iovec v = iovecs[i];
                if (v == null || v.iovBase() == null && v.iovLen() != 0 || v.iovLen() < 0
                        || v.iovBase() != null && v.iovLen() > v.iovBase().byteSize()) {
                    throw new PtlException(ReturnCode.ARG_INVALID, what + ": iovec " + i + " " + v + " is not within its segment");
                }
                p[i] = v.iovLen() == 0 ? MemorySegment.NULL : v.iovBase().asSlice(0, v.iovLen());
                total += v.iovLen();
            }
            return new Region(p, total);
        }
        if (length < 0) {
            throw new PtlException(ReturnCode.ARG_INVALID, what + ": negative length " + length);
        }
        if (length == 0) {
            return EMPTY;
        }
        if (start == null || start.equals(MemorySegment.NULL)) {
            throw new PtlException(ReturnCode.ARG_INVALID, what + ": start is NULL with length " + length);
        }
        if (length > start.byteSize()) {
            throw new PtlException(ReturnCode.ARG_INVALID, what + ": length " + length + " is beyond the " + start.byteSize() + " bytes of start");
        }
        if (start.isReadOnly()) {
            throw new PtlException(ReturnCode.ARG_INVALID, what + ": start is a read-only segment");
        }
        return new Region(new MemorySegment[] {start.asSlice(0, length)}, length);
    }

    /** The memory when it is one non-empty range, else null. */
    MemorySegment single() {
        return parts.length == 1 && parts[0].byteSize() > 0 ? parts[0] : null;
    }

    long length() {
        return length;
    }

    /**
     * Seed 003's validate: registers this memory with the drivers that need registration for
     * zero-copy (one native range of a page or more); hand the answer to
     * {@link Engine#deregister} when it is unbound (invalidate).
     */
    Object validate(Engine engine) {
        if (parts.length == 1 && parts[0].isNative() && parts[0].byteSize() >= 4096) {
            return engine.memory().register(parts[0]);
        }
        return null;
    }

    /** The range [off, off + n) as one segment when it lies in one part, else null. */
    MemorySegment contiguous(long off, long n) {
        MemorySegment p = containing(off, n);
        return p == null ? null : p.asSlice(foundAt, n);
    }

    /** Where the range {@link #containing} found starts in the part it answered. */
    long foundAt;

    /**
     * The part that holds all of [off, off + n), else null; the range starts at {@link #foundAt}
     * in it. Unlike {@link #contiguous} it allocates nothing (the library's hot path uses it).
     */
    MemorySegment containing(long off, long n) {
        for (MemorySegment p : parts) {
            long s = p.byteSize();
            if (off < s || s == 0 && off == 0 && n == 0) {
                foundAt = off;
                return off + n <= s ? p : null;
            }
            off -= s;
        }
        foundAt = 0;
        return n == 0 ? MemorySegment.NULL : null;
    }

    /** The range [off, off + n) as a data layout the engine can move. */
    DataLayout layout(long off, long n) {
        MemorySegment c = contiguous(off, n);
        if (c != null) {
            return IoVec.of(c);
        }
        IoVec v = new IoVec(parts.length);
        for (MemorySegment p : parts) {
            long s = p.byteSize();
            if (n == 0) {
                break;
            }
            if (off >= s) {
                off -= s;
                continue;
            }
            long k = Math.min(n, s - off);
            v.add(p.asSlice(off, k));
            n -= k;
            off = 0;
        }
        return v;
    }

    /** Copies {@code n} bytes from {@code src[srcOff..]} into the region at {@code off}. */
    void copyIn(long off, MemorySegment src, long srcOff, long n) {
        copy(off, src, srcOff, n, true);
    }

    /** Copies {@code n} bytes of the region at {@code off} to {@code dst[dstOff..]}. */
    void copyOut(long off, MemorySegment dst, long dstOff, long n) {
        copy(off, dst, dstOff, n, false);
    }

    private void copy(long off, MemorySegment other, long otherOff, long n, boolean in) {
        for (MemorySegment p : parts) {
            long s = p.byteSize();
            if (n == 0) {
                return;
            }
            if (off >= s) {
                off -= s;
                continue;
            }
            long k = Math.min(n, s - off);
            if (in) {
                MemorySegment.copy(other, otherOff, p, off, k);
            } else {
                MemorySegment.copy(p, off, other, otherOff, k);
            }
            otherOff += k;
            n -= k;
            off = 0;
        }
    }
}
