package dev.ferry.spi;

import java.lang.foreign.MemorySegment;

/**
 * One connection of a driver context to one peer context: seed 000's instance, one per gate.
 *
 * <p>Every method is a hot-path call: it returns a {@link Status}, never allocates, and never
 * throws for an ordinary outcome. Optional operations a driver lacks answer
 * {@link Status#NOT_IMPLEMENTED} (the defaults here).
 *
 * <p><b>Sending</b>: buffer-based ({@link #sendBufGet} fills {@link Packet#buffer()}, the caller writes
 * into it and calls {@link #sendBufPost}), iovec-based or data-based ({@link #sendPost} with the
 * packet's iovec or data layout). Then {@link #sendPoll} until DONE; {@link #sendWait} may follow a
 * first poll. A DONE send means the caller may reuse the memory.
 *
 * <p><b>Receiving</b>: buffer-based ({@link #recvPoll} with nothing posted hands over a filled driver
 * buffer, {@link #recvBufRelease} gives it back), or iovec/data-based ({@link #recvPost} then
 * {@link #recvPoll} or {@link #recvWait}). At most one receive is posted on an instance at a time.
 * On DONE, {@link Packet#length()} is the number of bytes received; a packet longer than the posted
 * memory completes INVALID after filling what fits (its length says how long it was).
 *
 * <p><b>Threading</b>: calls may come from different threads, never concurrently for one packet or
 * one instance (seed 000).
 *
 * <pre>{@code
 * Packet p = new Packet();
 * // buffer-based send of 8 bytes
 * if (inst.sendBufGet(p) == Status.DONE) {
 *     p.buffer().set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 42L);
 *     p.length(8);
 *     inst.sendBufPost(p);
 *     while (inst.sendPoll(p) == Status.NOT_YET) Thread.onSpinWait();
 * }
 * }</pre>
 */
public interface DriverInstance {

    // ---- connection -------------------------------------------------------------------------

    /**
     * Starts connecting to the context at {@code remote}; never blocks. Both sides call it, each
     * with the other's URL. INVALID when the URL does not parse or is not this driver's.
     */
    Status connectAsync(DriverUrl remote);

    /** Waits for the connection started by {@link #connectAsync}; optional for fully asynchronous drivers. */
    default Status connectWait() {
        return Status.NOT_IMPLEMENTED;
    }

    /** Closes the connection in order; no traffic takes place on it afterwards. Optional. */
    default Status disconnect() {
        return Status.NOT_IMPLEMENTED;
    }

    // ---- sending ----------------------------------------------------------------------------

    /** Buffer-based send, step 1: sets the packet's buffer to driver memory of {@link Capabilities#maxBufferSize()} bytes. NOT_YET when none is free now. */
    default Status sendBufGet(Packet packet) {
        return Status.NOT_IMPLEMENTED;
    }

    /** Buffer-based send, step 2: sends the first {@link Packet#length()} bytes of the buffer got by {@link #sendBufGet}. */
    default Status sendBufPost(Packet packet) {
        return Status.NOT_IMPLEMENTED;
    }

    /**
     * iovec- or data-based send of the packet's iovec or data layout. The memory stays the
     * caller's and must not change until the send is DONE. NOT_YET: not posted, try again later.
     */
    Status sendPost(Packet packet);

    /** Completion of a send: DONE, NOT_YET, or an error. Mandatory. */
    Status sendPoll(Packet packet);

    /** Blocks until the send completes; called only after at least one {@link #sendPoll}. Optional. */
    default Status sendWait(Packet packet) {
        return Status.NOT_IMPLEMENTED;
    }

    /** Prepares (registers, maps) the packet's memory early, before the rendezvous is accepted. Optional. */
    default Status sendPrefetch(Packet packet) {
        return Status.NOT_IMPLEMENTED;
    }

    /** Undoes {@link #sendPrefetch} when the data goes another way. Optional. */
    default Status sendUnfetch(Packet packet) {
        return Status.NOT_IMPLEMENTED;
    }

    // ---- target-initiated pull (seed 001's DMA format) ---------------------------------------

    /**
     * Offers the packet's data (iovec or data layout) for the peer to pull, instead of sending it:
     * writes the pull data, what the peer's {@link #pullPost} needs to reach the bytes, into the
     * first {@link Capabilities#pullDataSize()} bytes of {@code pullData}, for the upper layer to
     * carry to the peer (in its own announcement of the message). The packet's memory must stay
     * as it is until {@link #sendPoll} answers DONE: the peer has pulled it, or taken part of it,
     * or none. The peer may pull exposed packets in any order. Optional.
     *
     * <pre>{@code
     * if (out.sendExpose(p.useData(layout), rts.asSlice(PULL_AT)) == Status.DONE) {
     *     // announce the message with the pull data; poll out.sendPoll(p) until DONE
     * }
     * }</pre>
     *
     * @return DONE when exposed; NOT_YET when the driver holds as many exposures as it can now;
     *         INVALID when this memory cannot be pulled (say, heap arrays): send it instead
     */
    default Status sendExpose(Packet packet, MemorySegment pullData) {
        return Status.NOT_IMPLEMENTED;
    }

    /**
     * Pulls the first {@code packet.size()} bytes of what the peer exposed, described by
     * {@code pullData} (its {@link #sendExpose}), into the packet's iovec or data layout, and
     * releases the peer's exposure: a size of 0 pulls nothing and only releases it. Once per
     * exposure. Completes through {@link #pullPoll}. Optional, with {@link #sendExpose}.
     * {@code pullData} is read during the call only (what an unfinished pull needs, the driver
     * copies): the caller may reuse its memory as soon as the call returns.
     */
    default Status pullPost(Packet packet, MemorySegment pullData) {
        return Status.NOT_IMPLEMENTED;
    }

    /** Completion of a {@link #pullPost}: DONE with {@link Packet#length()} the bytes pulled. */
    default Status pullPoll(Packet packet) {
        return Status.NOT_IMPLEMENTED;
    }

    /**
     * Maps the peer's memory that {@code key} names ({@link DriverContext#shareKey} in the peer's
     * process) into this process: a segment of exactly the shared range, valid until this
     * instance's context closes. Loads, stores and atomics on it reach the peer's memory with no
     * call into the peer. Null when the key names nothing this instance can map (another node, a
     * driver without shared memory: the default, or a malformed key). Callable once
     * {@link #connectAsync} was DONE. Optional.
     *
     * <pre>{@code
     * MemorySegment remote = instance.mapShared(key);
     * if (remote != null) remote.set(ValueLayout.JAVA_LONG, 0, 42);   // lands in the peer's memory
     * }</pre>
     */
    default MemorySegment mapShared(byte[] key) {
        return null;
    }

    // ---- receiving --------------------------------------------------------------------------

    /**
     * iovec- or data-based receive into the packet's iovec or data layout. The driver may set
     * {@link Packet#rdvData()} here for the upper layer to carry to the sender.
     */
    default Status recvPost(Packet packet) {
        return Status.NOT_IMPLEMENTED;
    }

    /**
     * Completion of a posted receive; with nothing posted, the buffer-based receive: DONE hands
     * over a filled driver buffer in {@link Packet#buffer()}, to be given back with
     * {@link #recvBufRelease}. Mandatory.
     */
    Status recvPoll(Packet packet);

    /** Blocks until the posted receive completes; called only after at least one {@link #recvPoll}. Optional. */
    default Status recvWait(Packet packet) {
        return Status.NOT_IMPLEMENTED;
    }

    /** Gives back the driver buffer handed over by a buffer-based {@link #recvPoll}. */
    default Status recvBufRelease(Packet packet) {
        return Status.NOT_IMPLEMENTED;
    }

    /** Cancels a posted receive that has not completed: DONE when cancelled, INVALID when nothing is posted. */
    default Status recvCancel(Packet packet) {
        return Status.NOT_IMPLEMENTED;
    }

    /** Prepares the packet's receive memory early, before the rendezvous request arrives. Optional. */
    default Status recvPrefetch(Packet packet) {
        return Status.NOT_IMPLEMENTED;
    }

    /** Undoes {@link #recvPrefetch}. Optional. */
    default Status recvUnfetch(Packet packet) {
        return Status.NOT_IMPLEMENTED;
    }
}
