package dev.ferry.bench;

import dev.ferry.spi.Capabilities;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;

/**
 * One end of a benchmark connection, straight on the SPI: sends and receives by the driver's
 * cheapest way (buffer-based for what fits a driver buffer, one-segment iovecs otherwise) with
 * preallocated packets, so the timed loops allocate nothing. Polls busily, as
 * NewMadeleine's nm_driver_latency does.
 */
final class Endpoint {
    private final DriverInstance inst;
    private final Capabilities caps;
    private final MemorySegment sendMemory;
    private final MemorySegment recvMemory;
    private final Packet[] sendPackets;
    private final IoVec[] sendIovs;
    private final Packet recvPacket = new Packet();
    private final IoVec recvIov = new IoVec(1);
    private final IoVec replyIov = new IoVec(1);
    private MemorySegment sendSlice;
    private long size;

    Endpoint(DriverInstance inst, Capabilities caps, long maxSize, int window) {
        this(inst, caps, maxSize, window, null);
    }

    /** @param sendFrom memory to send from (e.g. the driver's shared arena), or null for ordinary off-heap memory */
    Endpoint(DriverInstance inst, Capabilities caps, long maxSize, int window, MemorySegment sendFrom) {
        this.inst = inst;
        this.caps = caps;
        Arena arena = Arena.ofAuto();
        sendMemory = sendFrom != null ? sendFrom : arena.allocate(Math.max(1, maxSize), 4096);
        recvMemory = arena.allocate(Math.max(1, maxSize), 4096);
        sendPackets = new Packet[window];
        sendIovs = new IoVec[window];
        for (int i = 0; i < window; i++) {
            sendPackets[i] = new Packet();
            sendIovs[i] = new IoVec(1);
        }
        replyIov.add(sendMemory);
        prepare(0);
    }

    MemorySegment sendMemory() {
        return sendMemory;
    }

    /** Sets the size of the next messages (allocates the slices once, outside the timed loop). */
    void prepare(long size) {
        this.size = size;
        sendSlice = sendMemory.asSlice(0, size);
        for (IoVec v : sendIovs) {
            v.clear().add(sendSlice);
        }
        recvIov.clear().add(recvMemory);
    }

    private boolean buffered(long n) {
        return caps.supportsBufSend() && n <= caps.maxBufferSize();
    }

    /** Posts send number {@code slot} of the window (its packet must be free). */
    void post(int slot) {
        Packet p = sendPackets[slot];
        if (buffered(size)) {
            p.reset();
            Status s;
            while ((s = inst.sendBufGet(p)) == Status.NOT_YET) {
                Thread.onSpinWait();
            }
            check(s, "sendBufGet");
            MemorySegment.copy(sendSlice, 0, p.buffer(), 0, size);
            p.length(size);
            check(inst.sendBufPost(p), "sendBufPost");
        } else {
            p.reset().useIov(sendIovs[slot]);
            Status s;
            while ((s = inst.sendPost(p)) == Status.NOT_YET) {
                Thread.onSpinWait();
            }
            check(s, "sendPost");
        }
    }

    /** Waits for send {@code slot} to complete. */
    void complete(int slot) {
        Packet p = sendPackets[slot];
        Status s;
        while ((s = inst.sendPoll(p)) == Status.NOT_YET) {
            Thread.onSpinWait();
        }
        check(s, "sendPoll");
    }

    void send() {
        post(0);
        complete(0);
    }

    /** Sends {@code n} bytes already in {@link #sendMemory()}; used by the responder for replies. */
    void sendBytes(long n) {
        if (n != size) {
            prepare(n);
        }
        send();
    }

    /** Receives one packet into the receive memory; returns its length. */
    long recv() {
        return receive(recvMemory, recvIov, NEVER);
    }

    /**
     * Receive for responders: straight into the send memory (what they send back), giving up
     * with -1 when {@code stop} turns true.
     */
    long recvOrStop(BooleanSupplier stop) {
        return receive(sendMemory, replyIov, stop);
    }

    private static final BooleanSupplier NEVER = () -> false;

    private long receive(MemorySegment into, IoVec intoIov, BooleanSupplier stop) {
        Packet p = recvPacket;
        if (caps.supportsBufRecv()) {
            p.reset();
            Status s;
            while ((s = inst.recvPoll(p)) == Status.NOT_YET) {
                if (stop.getAsBoolean()) {
                    return -1;
                }
                Thread.onSpinWait();
            }
            if (s == Status.DONE) {
                long n = p.length();
                MemorySegment.copy(p.buffer(), 0, into, 0, n); // the data is read, as an application would
                check(inst.recvBufRelease(p), "recvBufRelease");
                return n;
            }
            if (s != Status.INVALID) { // INVALID: larger than a driver buffer; post for it
                check(s, "recvPoll");
            }
        }
        p.reset().useIov(intoIov);
        check(inst.recvPost(p), "recvPost");
        Status s;
        while ((s = inst.recvPoll(p)) == Status.NOT_YET) {
            if (stop.getAsBoolean()) {
                inst.recvCancel(p);
                return -1;
            }
            Thread.onSpinWait();
        }
        check(s, "recvPoll");
        return p.length();
    }

    private static void check(Status s, String call) {
        if (s != Status.DONE) {
            throw new IllegalStateException(call + " answered " + s);
        }
    }
}
