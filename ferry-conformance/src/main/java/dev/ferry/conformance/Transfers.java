package dev.ferry.conformance;

import dev.ferry.spi.Capabilities;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Bounded, driver-agnostic send and receive helpers for the kit and its peer: every wait ends
 * with an error after {@link #TIMEOUT}, never a hang.
 */
public final class Transfers {
    /** How long any single wait of the kit may take before it fails loudly. */
    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    private Transfers() {
    }

    /** Thrown when a bounded wait runs out, or a transfer ends in an unexpected status. */
    public static final class TransferException extends RuntimeException {
        public TransferException(String message) {
            super(message);
        }
    }

    /** Calls {@code step} until it answers something other than NOT_YET, at most {@link #TIMEOUT}. */
    public static Status await(Supplier<Status> step, String what) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        for (int round = 0; ; round++) {
            Status s = step.get();
            if (s != Status.NOT_YET) {
                return s;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new TransferException(what + ": still NOT_YET after " + TIMEOUT.toSeconds() + " s");
            }
            if (round > 200) {
                Thread.yield(); // two cores may host both ends: let the other run
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** Like {@link #await} but demands DONE. */
    public static void expectDone(Supplier<Status> step, String what) {
        Status s = await(step, what);
        if (s != Status.DONE) {
            throw new TransferException(what + ": " + s);
        }
    }

    /** Posts (retrying while the driver answers NOT_YET) and polls a send of the packet's iovec or layout. */
    public static Status send(DriverInstance inst, Packet p) {
        Status s = await(() -> inst.sendPost(p), "send post");
        if (s != Status.DONE) {
            return s;
        }
        return await(() -> inst.sendPoll(p), "send poll");
    }

    /** Sends all of {@code memory} as a one-segment iovec, the form every driver accepts (seed 000). */
    public static Status sendContiguous(DriverInstance inst, MemorySegment memory, Packet p) {
        p.reset();
        p.useIov(IoVec.of(memory));
        return send(inst, p);
    }

    /**
     * Receives one packet into {@code into} (posted, then polled); returns the status and leaves
     * the received length in {@code p.length()}.
     */
    public static Status recvPosted(DriverInstance inst, Packet p, DataLayout into) {
        p.reset();
        if (into instanceof IoVec iov) {
            p.useIov(iov);
        } else {
            p.useData(into);
        }
        Status s = inst.recvPost(p);
        if (s != Status.DONE) {
            return s;
        }
        return await(() -> inst.recvPoll(p), "receive poll");
    }

    /**
     * Receives one packet of at most {@code capacity} bytes into {@code dst} by the driver's
     * preferred way: buffer-based when supported and the packet fits a buffer, posted otherwise.
     *
     * @return bytes received
     */
    public static long recvAny(DriverInstance inst, Capabilities caps, MemorySegment dst, Packet p) {
        if (caps.supportsBufRecv()) {
            p.reset();
            Status s = await(() -> inst.recvPoll(p), "buffer receive");
            if (s == Status.DONE) {
                long n = p.length();
                MemorySegment.copy(p.buffer(), 0, dst, 0, n);
                Status r = inst.recvBufRelease(p);
                if (r != Status.DONE) {
                    throw new TransferException("buffer release: " + r);
                }
                return n;
            }
            if (s != Status.INVALID) { // INVALID: larger than a buffer, post for it
                throw new TransferException("buffer receive: " + s);
            }
        }
        Status s = recvPosted(inst, p, IoVec.of(dst));
        if (s != Status.DONE) {
            throw new TransferException("posted receive: " + s);
        }
        return p.length();
    }

    /** Off-heap memory freed by the GC: the kit's transfers allocate without a scope to manage. */
    public static MemorySegment allocate(long bytes) {
        return Arena.ofAuto().allocate(Math.max(bytes, 1), 64).asSlice(0, bytes);
    }

    /** Fills with the kit's pattern: byte i is a function of i and {@code seed}. */
    public static void fill(MemorySegment m, long seed) {
        long n = m.byteSize(), first = Math.min(n, PATTERN_PERIOD);
        for (long i = 0; i < first; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, patternByte(i, seed));
        }
        // the pattern repeats every PATTERN_PERIOD bytes: the rest is copies of what is written, doubling
        for (long at = first; at < n; at += Math.min(at, n - at)) {
            MemorySegment.copy(m, 0, m, at, Math.min(at, n - at));
        }
    }

    /** The pattern's period: byte i and byte i + 65536 are the same (31 * 65536 and 65536 >>> 8 are multiples of 256). */
    private static final long PATTERN_PERIOD = 1 << 16;

    public static byte patternByte(long i, long seed) {
        return (byte) (i * 31 + seed * 7 + (i >>> 8));
    }

    /** Index of the first byte that differs from the pattern, or -1. */
    public static long checkPattern(MemorySegment m, long seed) {
        long n = m.byteSize(), first = Math.min(n, PATTERN_PERIOD);
        for (long i = 0; i < first; i++) {
            if (m.get(ValueLayout.JAVA_BYTE, i) != patternByte(i, seed)) {
                return i;
            }
        }
        // the first period checked byte by byte, each later one is compared with it
        for (long at = first; at < n; at += PATTERN_PERIOD) {
            long k = Math.min(PATTERN_PERIOD, n - at);
            long d = MemorySegment.mismatch(m, 0, k, m, at, at + k);
            if (d >= 0) {
                return at + d;
            }
        }
        return -1;
    }
}
