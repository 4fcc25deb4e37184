package dev.ferry.internal;

import dev.ferry.spi.Setting;

import java.util.List;

/**
 * The settings of the tools interface: whether each rank shows itself to JMX. (The Flight
 * Recorder events need none: a recording asks for them.)
 *
 * <pre>{@code
 * FERRY_JMX=on bin/ferry run -n 4 --example pairs     # then: jconsole, MBeans tab, dev.ferry
 * }</pre>
 */
public final class ToolSettings {
    /** Whether each rank registers its MBean (dev.ferry:type=Rank) with the platform MBean server. */
    public static final Setting JMX = new Setting("FERRY_JMX", "off",
            "on: each rank registers an MBean (dev.ferry:type=Rank,rank=R,...) with its settings and counters; "
                    + "off: none (the platform MBean server costs ~0.1 s to start)",
            Setting.Type.SWITCH, "tools (api)");

    private ToolSettings() {
    }

    public static List<Setting> all() {
        return List.of(JMX);
    }
}
