package dev.ferry;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * What every collective of a communicator shares: the communicator and its members, the tuning,
 * the temporary memory, the node's map and shared slots (made on first use), the argument checks,
 * and the start of a built {@link Schedule} as a {@link CollOp}. The collectives themselves are
 * its subclasses: {@link ExchangeCollectives} (gathers, scatters, all-to-all) and
 * {@link Collectives} (barrier, broadcast, reductions).
 */
abstract sealed class CollectiveMachinery permits ExchangeCollectives {
    final Comm comm;
    final Messaging messaging;
    final CollectiveTuning tuning;
    final TempPool pool;
    final int p, r;
    /** Where the members run, and their slots in the node's shared memory: made on first use. */
    NodeMap nodeMap;
    NodeArena arena;
    /** Small blocking allreduce and bcast, run in the caller's thread: made on first use. */
    DirectCollectives direct;
    /** Their buffers' last views, reused when the same buffer comes again (blocking collectives: one caller at a time). */
    final Scratch.Slice bufferView = new Scratch.Slice(), sendView = new Scratch.Slice();
    /** The last algorithm chosen (tests and benchmarks read it). */
    volatile String lastAlgorithm = "";

    CollectiveMachinery(Comm comm, Messaging messaging, CollectiveTuning tuning, TempPool pool) {
        this.pool = pool;
        this.comm = comm;
        this.messaging = messaging;
        this.tuning = tuning;
        this.p = comm.size();
        this.r = comm.rank();
    }

    /** 1 when this communicator lives on one node that runs more of its members than it has cores (every member sees the same), 0 when not, -1 until known. */
    int crowded = -1;

    boolean crowded() {
        if (crowded < 0) { // once: availableProcessors reads the container's limits each time
            crowded = nodeMap().nodes.length == 1 && p > Runtime.getRuntime().availableProcessors() ? 1 : 0;
        }
        return crowded == 1;
    }

    NodeMap nodeMap() {
        if (nodeMap == null) {
            nodeMap = new NodeMap(comm, messaging.engine());
        }
        return nodeMap;
    }

    DirectCollectives direct() {
        if (direct == null) {
            direct = new DirectCollectives(comm, messaging, pool);
        }
        return direct;
    }

    private static final Status DONE = Status.ok(Ferry.ANY_SOURCE, Ferry.ANY_TAG, 0, 1);
    /** What a collective done in the caller's thread answers: complete, and the same every time. */
    Request done;

    Request done() {
        if (done == null) {
            done = Request.completed(messaging, DONE);
        }
        return done;
    }

    NodeArena arena() {
        if (arena == null) {
            arena = new NodeArena(comm, messaging.engine());
        }
        return arena;
    }

    /** The members on this rank's node, split off on first need, and their slots in the node's shared memory. */
    Comm nodeComm;
    NodeArena nodeArena;

    /**
     * This node's members' slots for a node-aware collective's phases within nodes, or null (a
     * node of one, or memory that cannot be shared). Collective over the whole communicator the
     * first time (the node communicator is split off), then over the node's members: every
     * member asks at the same point of its collectives, with the same size.
     */
    MemorySegment[] nodeSlots(long bytes) {
        if (nodeComm == null) {
            nodeComm = comm.split(nodeMap().myNode, comm.rank());
            nodeArena = new NodeArena(nodeComm, messaging.engine());
        }
        return nodeArena.slots(bytes);
    }

    /** Frees what the collectives made for themselves (the node communicator), with their communicator. */
    void free() {
        if (arena != null) {
            try {
                arena.settle(); // the receipts come on this communicator's context, which goes now
            } catch (FerryException e) {
                messaging.engine().logger().log(System.Logger.Level.DEBUG, "rank {0}: freeing {1}: {2}", r, comm, e.getMessage());
            }
        }
        if (nodeComm != null) {
            nodeComm.free();
        }
    }

    /** Stores only a change: a volatile store is a full fence, as dear as a tenth of an 8-byte collective. */
    void noteAlgorithm(String algorithm) {
        if (lastAlgorithm != algorithm) {
            lastAlgorithm = algorithm;
        }
    }

    CollOp start(String what, String algorithm, Schedule s, List<Runnable> last) {
        for (Runnable step : last) {
            s.local(step);
        }
        noteAlgorithm(algorithm);
        CollOp op = new CollOp(messaging, comm, what + " (" + algorithm + ")", comm.nextCollectiveTag(), s, building);
        if (!building) {
            messaging.start(op);
        }
        return op;
    }

    /** While a persistent collective is built: {@link #start} makes its op without starting it. */
    private boolean building;

    /**
     * A persistent collective (MPI-4's {@code MPI_Allreduce_init} and the rest): {@code build}
     * builds the non-blocking form's schedule once, with its tag and temporaries, and each start
     * runs it again.
     */
    PersistentCollective persistent(java.util.function.Supplier<Request> build) {
        building = true;
        try {
            return new PersistentCollective((CollOp) build.get());
        } finally {
            building = false;
        }
    }

    void checkRoot(int root) {
        if (root < 0 || root >= p) {
            throw FerryException.arg(ErrorClass.ROOT, "root: " + root + " is outside the communicator's ranks 0.." + (p - 1));
        }
    }

    static void checkOp(Op op, Datatype type) {
        if (op == null) {
            throw FerryException.arg(ErrorClass.OP, "op is null");
        }
        CollBuffer.checkType(type, "");
        op.check(type);
    }

    static boolean inPlace(Object buf) {
        return buf == Ferry.IN_PLACE;
    }

    /** The checks of a rooted collective: a live communicator, a root in it, IN_PLACE ({@code buf}) only at the root. */
    void checkRooted(int root, Object buf, String which, String collective) {
        comm.checkLive();
        checkRoot(root);
        if (inPlace(buf) && r != root) {
            throw FerryException.arg(ErrorClass.BUFFER, which + ": IN_PLACE is not allowed here (only the root of a " + collective + " may pass it)");
        }
    }
}
