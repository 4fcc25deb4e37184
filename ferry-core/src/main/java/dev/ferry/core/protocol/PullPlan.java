package dev.ferry.core.protocol;

import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.Request;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * The pulls a rail's handlers asked for while it parsed, run once the packets waiting behind are
 * parsed too ({@link dev.ferry.core.rail.Rail#receivePacket}): a stream of rendezvous has the bookkeeping of several
 * messages done together, then their copies back to back. A copy of 64 KiB sweeps the
 * first-level cache; pulled one by one, each message's bookkeeping found the engine's state
 * evicted by the copy before (engine-bandwidth shm 64 KiB arena: some 70 ns per message above
 * the driver's own path, where 8 KiB copies showed none).
 *
 * <p>Each entry keeps a copy of its pull data (the packet goes back to the driver after parsing),
 * in a slice of one scratch segment; one more slice serves a pull run at once. Owned by the
 * thread that makes progress.
 *
 * <pre>{@code
 * plan.planning = true;            // while a packet is parsed
 * plan.add(request, accepted, packet, at, bytes);
 * plan.planning = false;
 * plan.run(rail::pullNow);         // in order
 * }</pre>
 */
public final class PullPlan {
    /** Most pulls in one plan; a packet with more RTS runs the plan and starts another. */
    static final int SIZE = 16;

    private final RecvRequest[] requests = new RecvRequest[SIZE];
    private final long[] accepted = new long[SIZE];
    private final MemorySegment[] data = new MemorySegment[SIZE + 1];
    private int count;
    /** True while a packet is parsed: pulls asked for then are planned, not run at once. */
    boolean planning;

    /** What runs one pull: the request, the bytes it accepts, the sender's pull data. */
    interface Puller {
        void pull(RecvRequest r, long accepted, MemorySegment pullData);
    }

    /** @param pullDataSize bytes of pull data an RTS carries on the rail (positive) */
    PullPlan(int pullDataSize) {
        MemorySegment scratch = Arena.ofAuto().allocate((long) pullDataSize * (SIZE + 1), 64);
        for (int i = 0; i <= SIZE; i++) {
            data[i] = scratch.asSlice((long) i * pullDataSize, pullDataSize);
        }
    }

    int count() {
        return count;
    }

    boolean full() {
        return count == SIZE;
    }

    /** Plans a pull, copying its {@code bytes} of pull data from {@code base} at {@code offset}; the plan must not be full. */
    void add(RecvRequest r, long acceptedBytes, MemorySegment base, long offset, int bytes) {
        int k = count++;
        requests[k] = r;
        accepted[k] = acceptedBytes;
        MemorySegment.copy(base, offset, data[k], 0, bytes);
    }

    /** The pull data of a pull run at once, copied into the slice no planned entry uses. */
    MemorySegment now(MemorySegment base, long offset, int bytes) {
        MemorySegment d = data[SIZE];
        MemorySegment.copy(base, offset, d, 0, bytes);
        return d;
    }

    /** Runs the planned pulls in order. A failure that drains the plan ({@link #drain}) ends the loop. */
    void run(Puller puller) {
        for (int k = 0; k < count; k++) {
            RecvRequest r = requests[k];
            requests[k] = null;
            puller.pull(r, accepted[k], data[k]);
        }
        count = 0;
    }

    /** Hands every planned request not yet run to {@code failed} and empties the plan. */
    void drain(Consumer<Request> failed) {
        for (int k = 0; k < count; k++) {
            if (requests[k] != null) { // those before it ran (or are failing now)
                failed.accept(requests[k]);
                requests[k] = null;
            }
        }
        count = 0;
    }
}
