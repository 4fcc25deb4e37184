package dev.ferry;

import dev.ferry.core.engine.Engine;

import java.util.List;

/**
 * How this rank reaches a peer: the peer's node, where it is from here, the drivers its messages
 * take (its rails; the first carries the small messages) and which protocol a message of a given
 * size takes. Nothing is connected to answer: the route is chosen at start from the drivers both
 * ranks have and where they are. {@code ferry demo} prints it per pair.
 *
 * <pre>{@code
 * Route r = world.route(1);
 * System.out.println("rank 1 is " + r.locality() + " on " + r.node() + ", through " + String.join("+", r.rails())
 *         + "; 8 B go " + r.protocol(8) + ", 4 MiB by " + r.protocol(4 << 20));
 * // rank 1 is SAME_NODE on vm, through shm; 8 B go immediate, 4 MiB by rendezvous
 * }</pre>
 *
 * @param rank       the peer, as the communicator numbers it
 * @param node       the peer's node (its host name and boot, or the node a launcher says it plays)
 * @param locality   where the peer is from this rank
 * @param rails      the names of the drivers (and their extra contexts, {@code tcp.1}) its messages take, in order
 * @param eagerLimit the largest message sent immediately; larger ones go by rendezvous
 */
public record Route(int rank, String node, Locality locality, List<String> rails, long eagerLimit) {
    /** Where a peer is from this rank: the driver that reaches it depends on this. */
    public enum Locality {
        /** This rank itself. */
        SELF,
        /** Another rank of this JVM (an in-process job). */
        SAME_PROCESS,
        /** Another process on this node. */
        SAME_NODE,
        /** A process on another node. */
        REMOTE
    }

    public Route {
        rails = List.copyOf(rails);
    }

    /** The route to job rank {@code worldRank}, which a communicator numbers {@code rank}, as {@code engine}'s gate to it has it. */
    static Route of(Engine engine, int rank, int worldRank) {
        Locality where = switch (engine.locality(worldRank)) {
            case "self" -> Locality.SELF;
            case "same process" -> Locality.SAME_PROCESS;
            case "same node" -> Locality.SAME_NODE;
            default -> Locality.REMOTE;
        };
        return new Route(rank, engine.node(worldRank), where, engine.rails(worldRank), engine.eagerLimit(worldRank));
    }

    /** The protocol a message of {@code bytes} takes to this peer: {@code "immediate"} or {@code "rendezvous"}. */
    public String protocol(long bytes) {
        return bytes <= eagerLimit ? "immediate" : "rendezvous";
    }
}
