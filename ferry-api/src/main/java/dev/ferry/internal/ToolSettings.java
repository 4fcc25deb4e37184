package dev.ferry.internal;

import dev.ferry.spi.Setting;

import java.util.List;

/**
 * The settings of the tools interface: whether each rank shows itself to JMX, and whether a wait
 * that lasts reports the rank's state. (The Flight Recorder events need none: a recording asks for
 * them.)
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

    /**
     * How long a blocking wait lasts before the rank logs, once for that wait, what it waits for
     * and the state of its engine: a job that hangs says where and why in its output.
     */
    public static final Setting STALL_REPORT = new Setting("FERRY_STALL_REPORT", "off",
            "a blocking wait that lasts this long logs (WARNING, once per wait) what it waits for and the rank's engine state "
                    + "(e.g. 30s, 2m; off: never)",
            Setting.Type.TEXT, "tools (api)");

    private ToolSettings() {
    }

    /** FERRY_STALL_REPORT in nanoseconds; Long.MAX_VALUE when off. */
    public static long stallReportNanos(dev.ferry.spi.Settings s) {
        String v = s.value(STALL_REPORT);
        return v == null || v.isBlank() || v.strip().equalsIgnoreCase("off") ? Long.MAX_VALUE
                : dev.ferry.core.config.EngineSettings.duration(STALL_REPORT, v);
    }

    public static List<Setting> all() {
        return List.of(JMX, STALL_REPORT);
    }
}
