package dev.ferry.core.gate;

import dev.ferry.core.config.EngineSettings;
import dev.ferry.spi.Settings;

/**
 * How the gates are built, from the engine's settings, read and checked once at start.
 *
 * @param eagerSetting      FERRY_EAGER_LIMIT in bytes, or -1 for the rail's own limit
 * @param credits           the credits each peer may be owed (FERRY_EAGER_CREDITS)
 * @param eagerPool         the credits all peers together may be granted (FERRY_EAGER_POOL); 0: each has {@code credits} from the start
 * @param multirail         whether a gate uses every context of its locality as a rail
 * @param multirailMin      the rendezvous size from which a message is split over the rails
 * @param rendezvousPull    whether rendezvous pulls where the driver can
 * @param sameProcessBySelf whether ranks of one process reach each other through the self driver
 * @param idleCloseNanos    a connection unused this long is closed (FERRY_IDLE_CLOSE); 0: never
 * @param maxConnections    connections per rank and driver beyond which the least recently used is closed
 *                          (FERRY_MAX_CONNECTIONS); 0: no cap
 */
public record GatePolicy(long eagerSetting, long credits, long eagerPool, boolean multirail, long multirailMin, boolean rendezvousPull,
                         boolean sameProcessBySelf, long idleCloseNanos, int maxConnections) {
    /** The policy {@code s} asks for; throws naming the setting that is wrong. */
    public static GatePolicy of(Settings s) {
        long eager = EngineSettings.eagerLimit(s);
        long credits = EngineSettings.credits(s);
        EngineSettings.check(s, eager, credits);
        return new GatePolicy(eager, credits, EngineSettings.eagerPool(s), EngineSettings.multirail(s), EngineSettings.multirailMin(s),
                EngineSettings.rendezvousPull(s), EngineSettings.sameProcessBySelf(s),
                EngineSettings.idleCloseNanos(s), EngineSettings.maxConnections(s));
    }
}
