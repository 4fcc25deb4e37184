package dev.ferry.core.agent;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.spi.Driver;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.Hints;
import dev.ferry.spi.Setting;
import dev.ferry.spi.Transport;

import java.util.List;

/**
 * Agent mode's network driver: a rank's packets to other nodes go through its node's agent
 * ({@link Agent}) by two rings in memory they share, and the agent carries them on its one link
 * to each other node. The engine uses it in place of the network drivers when
 * {@code FERRY_AGENT=on}; ranks of one node still reach each other through shm.
 *
 * <pre>{@code
 * DriverContext ctx = new AgentDriver().newContext(hints);   // finds or starts the node's agent
 * DriverUrl me = ctx.init();                                  // this rank, behind that agent
 * }</pre>
 */
public final class AgentDriver implements Driver {
    public static final String NAME = "agent";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "through the node's agent: one connection per node pair";
    }

    @Override
    public List<Setting> settings() {
        return AgentSettings.all();
    }

    /**
     * Agent mode's drivers: those selected, less the network ones (the agent owns the network),
     * then this one.
     */
    public static List<DiscoveredDriver> inPlaceOfNetwork(List<DiscoveredDriver> selected) {
        List<DiscoveredDriver> out = new java.util.ArrayList<>();
        for (DiscoveredDriver d : selected) {
            if (d.properties() == null || d.properties().capabilities().transport() != Transport.REMOTE) {
                out.add(d);
            }
        }
        AgentDriver a = new AgentDriver();
        out.add(new DiscoveredDriver(NAME, "builtin:agent", a, new AgentContext(Hints.single()).properties(), null));
        return out;
    }

    @Override
    public DriverContext newContext(Hints hints) {
        return new AgentContext(hints);
    }
}
