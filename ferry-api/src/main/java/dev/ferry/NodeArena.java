package dev.ferry;


import dev.ferry.core.engine.Engine;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A communicator's slots in the node's shared memory, for collectives among ranks of one node:
 * each member owns a slot of the local driver's shared arena and maps every other member's, so a
 * large allreduce reads the others' data in place instead of receiving copies. Made on first
 * need and grown (doubling) when a larger collective comes; making or growing it is itself
 * collective (an allgather of the slots' keys, and an agreement that every member mapped every
 * slot), and every member asks at the same point with the same size, so all agree whether the
 * arena is used without further words. Unusable for good (every member agreeing) when a member
 * cannot share or map memory.
 */
final class NodeArena {
    /** Bytes of a slot key in the exchange: the engine's keys are a driver name and a few numbers. */
    private static final int KEY_MAX = 252;

    private final Comm comm;
    private final Engine engine;
    private final boolean sameNode;
    private boolean broken;
    private long capacity;
    private MemorySegment[] slots;
    /** The other members' words that they copied a bcast's data out of this rank's slot, still awaited. */
    private Request owed;

    NodeArena(Comm comm, Engine engine) {
        this.comm = comm;
        this.engine = engine;
        String node = engine.node(comm.world(0));
        boolean same = comm.size() > 1;
        for (int i = 1; i < comm.size() && same; i++) {
            same = node.equals(engine.node(comm.world(i)));
        }
        this.sameNode = same;
    }

    /** Whether the members are all on this node (then {@link #slots} may work). */
    boolean sameNode() {
        return sameNode && !broken;
    }

    /**
     * Every member's slot, of at least {@code bytes}, this rank's own included; null when the
     * arena cannot serve (then no member uses it). Collective: every member calls it with the
     * same size at the same point of its sequence of collectives.
     */
    MemorySegment[] slots(long bytes) {
        if (!sameNode || broken) {
            return null;
        }
        settle();
        if (capacity >= bytes) {
            return slots;
        }
        long want = Math.max(bytes, 2 * capacity);
        want = (want + 65535) & ~65535L;
        int p = comm.size(), r = comm.rank();
        MemorySegment mine = engine.memory().allocate(want);
        byte[] key = engine.memory().shareKey(mine);
        byte[] slot = new byte[KEY_MAX + 4];
        if (key != null && key.length <= KEY_MAX) {
            MemorySegment.ofArray(slot).set(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, 0, key.length);
            System.arraycopy(key, 0, slot, 4, key.length);
        }
        byte[] all = new byte[p * slot.length];
        comm.allgather(slot, 0, slot.length, Datatype.BYTE, all, 0, slot.length, Datatype.BYTE);
        MemorySegment[] mapped = new MemorySegment[p];
        mapped[r] = mine;
        int[] ok = {key != null ? 1 : 0};
        for (int j = 0; j < p && ok[0] == 1; j++) {
            if (j == r) {
                continue;
            }
            int len = MemorySegment.ofArray(all).get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, (long) j * slot.length);
            if (len <= 0) {
                ok[0] = 0;
                break;
            }
            byte[] theirs = Arrays.copyOfRange(all, j * slot.length + 4, j * slot.length + 4 + len);
            int peer = comm.world(j), index = j;
            engine.runSerialized(() -> mapped[index] = engine.peerMemory(peer, theirs)); // maps in the engine's thread of control
            if (mapped[j] == null || mapped[j].byteSize() < want) {
                ok[0] = 0;
            }
        }
        comm.iallreduce(Ferry.IN_PLACE, 0, ok, 0, 1, Datatype.INT, Op.MIN).await(); // the non-blocking form never takes the arena
        if (ok[0] == 0) {
            broken = true; // every member learnt it: none uses the arena from now on
            return null;
        }
        slots = mapped;
        capacity = want;
        return slots;
    }

    /**
     * Notes the receipts of a bcast this rank was the root of: until they are in, others may still
     * read its slot ({@link ArenaAlgorithms#bcastRoot}).
     */
    void owe(Request copiedOut) {
        owed = copiedOut;
    }

    /**
     * Waits until the others have copied the last bcast's data out of this rank's slot, before it
     * writes there again (every use of the slots asks for them first, {@link #slots}). They do so
     * before their own bcast returns, so this waits only for members still copying; a member
     * that died fails it, and with it the collective that asked.
     */
    void settle() {
        Request o = owed;
        if (o != null) {
            owed = null;
            o.await();
        }
    }
}
