package dev.ferry.spi;

/**
 * A driver in one context (one NIC, one rail): properties, init, the URL, the instances, and the
 * context-wide receive calls of seed 000.
 *
 * <p><b>Threading</b> (seed 000): calls may come from different threads, but never concurrently
 * for one packet or one instance. {@link #recvCancelAny()} is the exception meant to run while
 * {@link #recvWaitAny} blocks in another thread; and {@link #recvWaitAny} itself may run in one
 * thread while others use the instances, since it only reports readiness and consumes nothing
 * (an engine sleeps that way while idle).
 *
 * <p>After {@link #close()} every status-returning call answers {@link Status#CLOSED} and every
 * other call throws {@link IllegalStateException}.
 *
 * <pre>{@code
 * InstanceRef ready = new InstanceRef();
 * while (running) {
 *     Status s = ctx.recvWaitAny(ready);          // sleeps when idle
 *     if (s == Status.DONE) handle(ready.instance);
 * }
 * }</pre>
 */
public interface DriverContext extends AutoCloseable {
    /**
     * The driver's capabilities and profile in this context, filled in from the hints given at
     * creation. Called first and exactly once; a second call throws IllegalStateException.
     *
     * @throws DriverException when the driver cannot work here (its library or hardware is
     *         missing): it is then listed as unavailable with the message, without a warning
     */
    DriverProperties properties();

    /**
     * Initialises the context and returns its URL, which the launcher gives every other process.
     * A wide URL only when {@link Hints#wideUrlSupport()} was granted.
     *
     * @throws DriverException when the driver cannot start (no interface, no memory, ...)
     */
    DriverUrl init();

    /** A new, unconnected instance: one per gate (peer). */
    DriverInstance newInstance();

    /**
     * Context-wide non-blocking probe: sets {@code ready.instance} to an instance on which a
     * receive posted now succeeds immediately, and answers DONE; NOT_YET when none has data.
     * Fair: instances with data are served in turn. NOT_IMPLEMENTED unless
     * {@link Capabilities#hasRecvAny()}.
     */
    default Status recvProbeAny(InstanceRef ready) {
        return Status.NOT_IMPLEMENTED;
    }

    /**
     * Blocking {@link #recvProbeAny}: waits (sleeping in the kernel when idle) until an instance
     * has data, and answers DONE; CANCELED when {@link #recvCancelAny()} ended the wait; NOT_YET
     * when a peer asked to connect (once per request: {@link #acceptProbe} reports it), so that a
     * sleeping engine takes up a new peer at once, and when a peer moved on a send of this
     * context's without a packet (pulled an exposed or large packet, freed room), so that the
     * sender's wait sees it complete at once. NOT_IMPLEMENTED unless
     * {@link Capabilities#supportsWaitAny()}. A wait may take up to a second to notice a peer that
     * died without a word (a killed process rings no bell).
     */
    default Status recvWaitAny(InstanceRef ready) {
        return Status.NOT_IMPLEMENTED;
    }

    /**
     * Ends a {@link #recvWaitAny} running in another thread (it answers CANCELED); when none runs,
     * the next one answers CANCELED at once. Safe to call concurrently with recvWaitAny.
     */
    default Status recvCancelAny() {
        return Status.NOT_IMPLEMENTED;
    }

    /**
     * The memory this context holds now, by kind: {@code into} is given each kind's name (prefixed
     * with the driver's) and bytes, e.g. the rings of the connections open now, their buffers, a
     * shared arena. For {@code ferry run --stats}; any thread, a snapshot. Optional: nothing by default.
     *
     * <pre>{@code
     * ctx.bytesHeld((kind, bytes) -> System.out.println(kind + " " + bytes));   // "shm channels 1032192"
     * }</pre>
     */
    default void bytesHeld(java.util.function.ObjLongConsumer<String> into) {
    }

    /**
     * Network connections this context's driver holds for the rank beyond its instances, by kind:
     * a node agent's links to other nodes, shared by the node's ranks. For {@code ferry run
     * --stats}; any thread, a snapshot. Optional: nothing by default.
     *
     * <pre>{@code
     * ctx.connectionsHeld((kind, n) -> System.out.println(kind + " " + n));   // "agent links to other nodes 2"
     * }</pre>
     */
    default void connectionsHeld(java.util.function.ObjLongConsumer<String> into) {
    }

    /**
     * Optional, non-blocking: reports a peer context that called {@code connectAsync} with this
     * context's URL while no instance of this context has connected (or is connecting) to it.
     * Answers DONE with the peer's URL in {@code request}; the caller then makes an instance and
     * connects it to that URL, which completes the connection. Each request is reported once;
     * NOT_YET when none waits. A driver without it answers NOT_IMPLEMENTED, and an engine then
     * connects to every peer of that driver up front.
     */
    default Status acceptProbe(ConnectRequest request) {
        return Status.NOT_IMPLEMENTED;
    }

    /**
     * Memory the driver moves with no copy of its own beyond one memcpy or DMA: registered memory,
     * or memory in a segment the peers can map (the shm driver's shared arena). The engine's
     * allocation call for registered buffers comes here. Valid until the context closes. Optional:
     * null when the driver has no such memory (the default).
     *
     * <pre>{@code
     * MemorySegment buf = ctx.allocate(4 << 20);
     * if (buf == null) buf = Arena.ofShared().allocate(4 << 20);   // ordinary memory then
     * }</pre>
     */
    default java.lang.foreign.MemorySegment allocate(long byteSize) {
        return null;
    }

    /**
     * A key by which a peer on this node maps {@code memory} into its own address space, so that
     * it reads and writes it with plain loads, stores and atomics (UCX's rkey pack for
     * {@code ucp_rkey_ptr}; Open MPI's shared-memory windows). Only memory from {@link #allocate}
     * can have one. Null when this memory cannot be shared (the default). Hand the key to the
     * peer, which gives it to {@link DriverInstance#mapShared} on its instance to us.
     *
     * <pre>{@code
     * MemorySegment window = ctx.allocate(1 << 20);
     * byte[] key = ctx.shareKey(window.asSlice(4096, 64));   // null: not shareable
     * }</pre>
     */
    default byte[] shareKey(java.lang.foreign.MemorySegment memory) {
        return null;
    }

    /**
     * Memory another driver's context of this process {@link #allocate allocated} in a shared
     * mapping of a file (the shm driver's arena), valid until the engine closes: a driver that
     * reaches this process's memory from another process (the node agent's) may map it there now,
     * so that its transfers move it with no copy through that process's own memory. Called once
     * per allocation, by the thread that allocated. Optional: nothing by default.
     *
     * <pre>{@code
     * MemorySegment buf = shm.allocate(4 << 20);
     * for (DriverContext c : others) c.prepareShared(buf);
     * }</pre>
     */
    default void prepareShared(java.lang.foreign.MemorySegment memory) {
    }

    /**
     * A table the layer above keeps in memory this context's process {@link #allocate allocated}
     * and {@link #prepareShared shared}, published for a driver that acts for this process from
     * another one (the node agent, which then serves some arriving messages by itself): {@code
     * kind} names the table's layout, which the layer above and the driver's offload for it
     * agree on. Called once per table, by the thread that made it; whether this context took it.
     * Optional: false by default.
     *
     * <pre>{@code
     * MemorySegment directory = engine.memory().allocate(bytes);
     * for (DriverContext c : contexts) c.offloadTable(DIRECTORY_KIND, directory);
     * }</pre>
     */
    default boolean offloadTable(int kind, java.lang.foreign.MemorySegment table) {
        return false;
    }

    /**
     * Prepares memory the layer above will move often, so that later transfers from or into it
     * are zero-copy (seed 003's validate: the library calls it when a memory descriptor or list
     * entry is bound). Answers a cookie to hand back to {@link #deregister} when the memory is
     * unbound (seed 003's invalidate), or null when this driver needs no registration (the
     * default: shared memory and sockets read any memory as it is). Optional.
     *
     * <pre>{@code
     * Object reg = ctx.register(buffer);   // at bind
     * ...                                  // transfers from or into buffer
     * ctx.deregister(reg);                 // at unbind
     * }</pre>
     */
    default Object register(java.lang.foreign.MemorySegment memory) {
        return null;
    }

    /** Releases a registration {@link #register} made; null is ignored. */
    default void deregister(Object registration) {
    }

    /**
     * Closes the context: last call, after every instance was disconnected (instances still
     * connected are torn down, and their peers see BROKEN). Idempotent.
     */
    @Override
    void close();
}
