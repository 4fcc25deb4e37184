package dev.ferry.launch;

import dev.ferry.spi.Setting;

import java.util.List;

/**
 * The settings the launcher and the bootstrap read: how a rank talks PMI, which node it is on,
 * and what {@code ferry run} sets for its ranks. Read through a {@link dev.ferry.spi.Settings}
 * (the environment by default), or from the environment map a launcher gives its ranks.
 *
 * <pre>{@code
 * String node = Settings.fromEnvironment().value(LaunchSettings.NODE_ID);   // null: this machine's identity
 * }</pre>
 */
public final class LaunchSettings {
    public static final Setting PMI = new Setting("FERRY_PMI", "auto",
            "auto (ask the launcher for PMI-2, take PMI-1 if it declines), 1 or 2",
            Setting.Type.CHOICE, "bootstrap (PMI client)");
    public static final Setting NODE_ID = new Setting("FERRY_NODE_ID", null,
            "overrides this node's identity (host name plus boot id) used for locality",
            Setting.Type.TEXT, "bootstrap, engine wire-up");
    public static final Setting RANKS_PER_NODE = new Setting("FERRY_RANKS_PER_NODE", null,
            "play several nodes on one machine: rank r is on node r / K (ferry run --ranks-per-node K sets it)",
            Setting.Type.NUMBER, "engine wire-up");
    public static final Setting CDS = new Setting("FERRY_CDS", "on",
            "off disables the ahead-of-time cache (-XX:AOTCache) ferry run keeps for its ranks in ~/.cache/ferry/cds",
            Setting.Type.SWITCH, "ferry run");
    public static final Setting LAUNCHER_PID = new Setting("FERRY_LAUNCHER_PID", null,
            "set by ferry run for its ranks: the launcher's pid, whose death ends them",
            Setting.Type.NUMBER, "bootstrap");

    public static final Setting SSH = new Setting("FERRY_SSH", "ssh -T -o BatchMode=yes",
            "the agent ferry run --hosts starts each host's proxy with: a command and its options, the host then the command following",
            Setting.Type.TEXT, "ferry run --hosts");
    public static final Setting HOME = new Setting("FERRY_HOME", null,
            "Ferry's directory on the hosts of ferry run --hosts when not at this launcher's path (as --prefix)",
            Setting.Type.TEXT, "ferry run --hosts");

    public static final Setting DEBUG = new Setting("FERRY_DEBUG", "0",
            "1: a one-line error of ferry run or ferry exec (a setting, a driver selection) is followed by the trace behind it",
            Setting.Type.TEXT, "ferry run, ferry exec");

    private LaunchSettings() {
    }

    public static List<Setting> all() {
        return List.of(PMI, NODE_ID, RANKS_PER_NODE, CDS, LAUNCHER_PID, SSH, HOME, DEBUG);
    }
}
