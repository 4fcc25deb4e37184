package dev.ferry.core.engine;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@link Engine#describe} tells per kind of peer (self, same node, remote): the rails a gate
 * of that kind has and the protocol used per size range, like UCX_PROTO_INFO. Read from one gate
 * of each kind: gates of a kind are built alike.
 *
 * <pre>{@code
 *   same node (1 peer): rails shm
 *       0 .. 8144 B: immediate (in the packet; queued messages aggregated; 262144 B of credits per peer)
 *       > 8144 B: rendezvous by pull (...)
 * }</pre>
 */
final class ProtocolInfo {
    private ProtocolInfo() {
    }

    /** One block per kind of peer, in the order the kinds first appear among {@code gates}. */
    static String byKindOfPeer(Gate[] gates, long creditLimit, long multirailMin) {
        StringBuilder b = new StringBuilder();
        Map<String, Gate> byKind = new LinkedHashMap<>();
        for (Gate g : gates) {
            byKind.putIfAbsent(g.kind, g);
        }
        for (Map.Entry<String, Gate> e : byKind.entrySet()) {
            Gate g = e.getValue();
            long peers = java.util.Arrays.stream(gates).filter(x -> x.kind.equals(e.getKey())).count();
            b.append(String.format("  %-9s (%d peer%s): ", e.getKey(), peers, peers == 1 ? "" : "s"));
            if (g.rails.length == 0) {
                b.append("unreachable: no selected driver\n");
                continue;
            }
            b.append("rails ");
            for (Rail r : g.rails) {
                b.append(r.index == 0 ? "" : ", ").append(r.ec.name());
            }
            b.append('\n');
            b.append(String.format("      0 .. %d B: immediate (in the packet; queued messages aggregated; %d B of credits per peer)%n",
                    g.eagerLimit, creditLimit));
            if (g.rails[0].pullDataSize > 0) {
                b.append(String.format("      > %d B: rendezvous by pull (the RTS carries %s's pull data; the target places it and pulls it at once: %s)%n",
                        g.eagerLimit, g.rails[0].ec.driver(), g.rails[0].ec.description()));
            }
            b.append(String.format("      > %d B%s: rendezvous (RTS; the target places it and sends CTS; raw chunks moved by %s)%n",
                    g.eagerLimit, g.rails[0].pullDataSize > 0 ? " that cannot be pulled" : "", g.rails[0].ec.driver() + ": " + g.rails[0].ec.description()));
            if (g.rails.length > 1) {
                b.append(String.format("      >= %d B: split over %d rails by bandwidth%n", multirailMin, g.rails.length));
            }
        }
        return b.toString();
    }
}
