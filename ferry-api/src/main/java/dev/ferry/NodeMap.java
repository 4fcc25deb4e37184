package dev.ferry;


import dev.ferry.core.engine.Engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which node each member of a communicator runs on: the nodes in the order of their lowest
 * rank, each node's members in rank order, and a leader per node (its lowest rank, or the root
 * of a rooted collective on the root's node). Node-aware collectives run a phase among the
 * members of each node (over shared memory) and one among the leaders (over the network).
 */
final class NodeMap {
    /** The members (communicator ranks) of each node, in rank order. */
    final int[][] nodes;
    /** Which node each member runs on. */
    final int[] nodeOf;
    /** This rank's node, and its index among that node's members. */
    final int myNode;
    final int myLocal;

    NodeMap(Comm comm, Engine engine) {
        Map<String, List<Integer>> byNode = new LinkedHashMap<>();
        for (int i = 0; i < comm.size(); i++) {
            byNode.computeIfAbsent(engine.node(comm.world(i)), k -> new ArrayList<>()).add(i);
        }
        nodes = new int[byNode.size()][];
        nodeOf = new int[comm.size()];
        int n = 0;
        for (List<Integer> members : byNode.values()) {
            nodes[n] = members.stream().mapToInt(Integer::intValue).toArray();
            for (int m : nodes[n]) {
                nodeOf[m] = n;
            }
            n++;
        }
        myNode = nodeOf[comm.rank()];
        myLocal = indexOf(nodes[myNode], comm.rank());
    }

    /** Whether a node-aware algorithm saves anything: several nodes, and a node with several members. */
    boolean worthIt() {
        return nodes.length > 1 && nodes.length < nodeOf.length;
    }

    /** The leaders: each node's first member, except that {@code root} leads its own node. */
    int[] leaders(int root) {
        int[] l = new int[nodes.length];
        for (int i = 0; i < l.length; i++) {
            l[i] = nodes[i][0];
        }
        if (root >= 0) {
            l[nodeOf[root]] = root;
        }
        return l;
    }

    static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        return -1;
    }
}
