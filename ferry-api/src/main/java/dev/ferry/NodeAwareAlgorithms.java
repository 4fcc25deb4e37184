package dev.ferry;

import java.lang.foreign.MemorySegment;

/**
 * Collectives on a communicator that spans nodes, in two levels: the members of each node
 * combine or spread among themselves (shared memory), and only one leader per node talks over
 * the network. Each phase is one of the one-level algorithms run over a subset of the ranks
 * ({@link Schedule#over}). Reductions here are for commutative operations (a node's members need
 * not be consecutive ranks).
 */
final class NodeAwareAlgorithms {
    private NodeAwareAlgorithms() {
    }

    /** Reduce within each node to its leader, allreduce among the leaders, bcast within each node. */
    static void allreduce(Schedule s, NodeMap m, MemorySegment acc, Reducer red, long count) {
        int[] local = m.nodes[m.myNode], leaders = m.leaders(-1);
        s.over(local);
        TreeAlgorithms.reduceBinomial(s, local.length, m.myLocal, 0, acc, acc, red, count);
        if (m.myLocal == 0) {
            s.over(leaders);
            DoublingAlgorithms.allreduce(s, leaders.length, m.myNode, acc, red, count);
        }
        s.over(local);
        TreeAlgorithms.bcastBinomial(s, local.length, m.myLocal, 0, acc);
        s.over(null);
    }

    /**
     * {@link #allreduce} whose phases within a node go through the node's shared arena
     * ({@code slots}: every member's slot, in node order, of twice the data): the members' data
     * is reduced into the leader's {@code acc} reading their slots in place, and the result
     * spread by one copy into the leader's slot and one copy out of it per member.
     */
    static void allreduceArena(Schedule s, NodeMap m, MemorySegment[] slots, MemorySegment input, MemorySegment acc, Reducer red, long count) {
        int[] local = m.nodes[m.myNode], leaders = m.leaders(-1);
        s.over(local);
        ArenaAlgorithms.reduce(s, local.length, m.myLocal, 0, slots, input, acc, red, count);
        if (m.myLocal == 0) {
            s.over(leaders);
            DoublingAlgorithms.allreduce(s, leaders.length, m.myNode, acc, red, count);
        }
        s.over(local);
        ArenaAlgorithms.bcast(s, local.length, m.myLocal, 0, slots, acc);
        s.over(null);
    }

    /**
     * The root's node is led by the root: bcast among the leaders from it, then within each node
     * from its leader, through the node's shared arena when {@code slots} is not null.
     */
    static void bcast(Schedule s, NodeMap m, int root, MemorySegment data, MemorySegment[] slots) {
        int[] local = m.nodes[m.myNode], leaders = m.leaders(root);
        int me = local[m.myLocal], leaderLocal = NodeMap.indexOf(local, leaders[m.myNode]);
        if (me == leaders[m.myNode]) {
            s.over(leaders);
            TreeAlgorithms.bcastBinomial(s, leaders.length, m.myNode, m.nodeOf[root], data);
        }
        s.over(local);
        if (slots != null) {
            ArenaAlgorithms.bcast(s, local.length, m.myLocal, leaderLocal, slots, data);
        } else {
            TreeAlgorithms.bcastBinomial(s, local.length, m.myLocal, leaderLocal, data);
        }
        s.over(null);
    }

    /** Reduce within each node to its leader (the root on its node), then among the leaders to the root. */
    static void reduce(Schedule s, NodeMap m, int root, MemorySegment acc, MemorySegment result, Reducer red, long count) {
        int[] local = m.nodes[m.myNode], leaders = m.leaders(root);
        int me = local[m.myLocal], leaderLocal = NodeMap.indexOf(local, leaders[m.myNode]);
        s.over(local);
        TreeAlgorithms.reduceBinomial(s, local.length, m.myLocal, leaderLocal, acc, acc, red, count);
        if (me == leaders[m.myNode]) {
            s.over(leaders);
            TreeAlgorithms.reduceBinomial(s, leaders.length, m.myNode, m.nodeOf[root], acc, result, red, count);
        }
        s.over(null);
    }

    /** Every member tells its leader it arrived, the leaders pass a dissemination barrier, each leader releases its node. */
    static void barrier(Schedule s, NodeMap m) {
        int[] local = m.nodes[m.myNode], leaders = m.leaders(-1);
        s.over(local);
        if (m.myLocal == 0) {
            for (int i = 1; i < local.length; i++) {
                s.recv(i, DoublingAlgorithms.NOTHING);
            }
            s.next();
            s.over(leaders);
            DoublingAlgorithms.barrierDissemination(s, leaders.length, m.myNode);
            s.over(local);
            for (int i = 1; i < local.length; i++) {
                s.send(i, DoublingAlgorithms.NOTHING);
            }
            s.next();
        } else {
            s.send(0, DoublingAlgorithms.NOTHING).next();
            s.recv(0, DoublingAlgorithms.NOTHING).next();
        }
        s.over(null);
    }
}
