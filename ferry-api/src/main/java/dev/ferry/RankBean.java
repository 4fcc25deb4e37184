package dev.ferry;

import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.core.engine.Engine;
import dev.ferry.core.gate.ConnectionCounts;
import dev.ferry.core.gate.Gate;
import dev.ferry.core.rail.EngineStats;
import dev.ferry.internal.KnownSettings;
import dev.ferry.spi.Setting;
import dev.ferry.spi.Settings;

import javax.management.JMException;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A rank's {@link FerryMXBean}: registered at init when FERRY_JMX is on, unregistered at close. */
final class RankBean implements FerryMXBean {
    private final Ferry ferry;
    private final Engine engine;
    private final Messaging messaging;
    private final List<SettingValue> settings;
    private ObjectName name;

    private RankBean(Ferry ferry) {
        this.ferry = ferry;
        this.engine = ferry.engine;
        this.messaging = ferry.messaging;
        Settings s = engine.settings();
        List<SettingValue> list = new ArrayList<>();
        for (Setting k : KnownSettings.all(DriverCatalog.discover())) {
            list.add(new SettingValue(k.name(), s.value(k), s.source(k), k.description()));
        }
        this.settings = List.copyOf(list);
    }

    /** Registers {@code ferry}'s bean; null (and logged) when the server refuses it. */
    static RankBean register(Ferry ferry) {
        RankBean b = new RankBean(ferry);
        try {
            b.name = new ObjectName("dev.ferry:type=Rank,rank=" + ferry.rank() + ",id=" + Integer.toHexString(System.identityHashCode(ferry)));
            ManagementFactory.getPlatformMBeanServer().registerMBean(b, b.name);
            return b;
        } catch (JMException e) {
            ferry.engine.logger().log(System.Logger.Level.WARNING, "rank {0}: FERRY_JMX: the MBean was not registered: {1}", ferry.rank(), e.toString());
            return null;
        }
    }

    void unregister() {
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
        } catch (JMException e) {
            engine.logger().log(System.Logger.Level.DEBUG, "rank {0}: FERRY_JMX: unregistering: {1}", ferry.rank(), e.toString());
        }
    }

    @Override
    public int getRank() {
        return engine.rank();
    }

    @Override
    public int getSize() {
        return engine.size();
    }

    @Override
    public String getLauncher() {
        return ferry.launcher();
    }

    @Override
    public String getNode() {
        return engine.node(engine.rank());
    }

    @Override
    public List<SettingValue> getSettings() {
        return settings;
    }

    @Override
    public Map<String, Long> getCounters() {
        Map<String, Long> m = new LinkedHashMap<>();
        ConnectionCounts c = engine.connections();
        m.put("connections open", c.open());
        m.put("connections opened", c.opened());
        m.put("connections closed idle", c.closedIdle());
        m.put("connections evicted", c.evicted());
        EngineStats st = engine.stats();
        for (String rail : st.contextNames()) {
            m.put(rail + " immediate messages", st.immediateMessages(rail));
            m.put(rail + " immediate bytes", st.immediateBytes(rail));
            m.put(rail + " rendezvous bytes", st.rendezvousBytes(rail));
        }
        m.put("rendezvous started", st.rendezvousStarted());
        m.put("credit waits (sent as envelopes)", st.envelopes());
        m.put("packets", st.packets());
        m.put("eager bytes held", st.heldBytes());
        m.put("eager bytes held at most", st.heldMax());
        m.put("unexpected queue", (long) messaging.unexpectedCount());
        m.put("matched on arrival", messaging.matchedOnArrival);
        m.put("arrived unexpected", messaging.arrivedUnexpected);
        m.put("matched unexpected", messaging.matchedUnexpected);
        if (st.armedReceives() > 0) { // agent mode: receives handed to the node agent, and those it matched
            m.put("receives armed for the agent", st.armedReceives());
            m.put("receives matched by the agent", st.agentMatches());
        }
        return m;
    }

    @Override
    public Map<String, Long> getBytesHeld() {
        return new LinkedHashMap<>(engine.bytesHeld());
    }

    @Override
    public List<PeerTraffic> getPeers() {
        List<PeerTraffic> out = new ArrayList<>();
        for (int p = 0; p < engine.size(); p++) {
            Gate g = engine.gateIfMade(p);
            if (g != null) {
                out.add(new PeerTraffic(p, g.messagesSent, g.bytesSent, g.messagesReceived, g.bytesReceived));
            }
        }
        return out;
    }
}
