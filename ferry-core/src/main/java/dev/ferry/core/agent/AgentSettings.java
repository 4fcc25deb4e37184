package dev.ferry.core.agent;

import dev.ferry.spi.Setting;
import dev.ferry.spi.Settings;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

/**
 * The settings of agent mode.
 *
 * <pre>{@code
 * boolean on = AgentSettings.on(settings);            // FERRY_AGENT=on
 * Path socket = AgentSettings.socket(settings, key);  // where the node's agent of this job listens
 * }</pre>
 */
public final class AgentSettings {
    public static final Setting AGENT = new Setting("FERRY_AGENT", "off",
            "on: traffic to other nodes goes through the node's agent (one connection per node pair), which ferry run (or a host's proxy, or Slurm's task prolog bin/ferry-task-prolog) starts beside the ranks, or else the node's first rank, if none runs",
            Setting.Type.SWITCH, "core");
    public static final Setting SOCKET = new Setting("FERRY_AGENT_SOCKET", null,
            "the Unix socket of the node's agent (default: ferry-agent-UID-JOB.sock in the temporary directory, JOB from the job key and node; its lock and log beside it)",
            Setting.Type.TEXT, "core");

    private AgentSettings() {
    }

    public static List<Setting> all() {
        return List.of(AGENT, SOCKET);
    }

    /** Whether agent mode is on; a value other than on or off is an error naming it. */
    public static boolean on(Settings settings) {
        String v = settings.value(AGENT);
        if (v == null || v.isBlank() || v.strip().equalsIgnoreCase("off")) {
            return false;
        }
        if (v.strip().equalsIgnoreCase("on")) {
            return true;
        }
        throw new IllegalArgumentException("FERRY_AGENT: '" + v + "' is neither on nor off");
    }

    /**
     * The agent's socket: FERRY_AGENT_SOCKET, else one per user, job and node in the temporary
     * directory (where the log of an agent that met a fault stays for its user to read).
     */
    public static Path socket(Settings settings, String jobKey, String node) {
        String s = settings.value(SOCKET);
        if (s != null && !s.isBlank()) {
            return Path.of(s.strip());
        }
        byte[] id = (jobKey + "\n" + (node == null ? "" : node)).getBytes(StandardCharsets.UTF_8);
        String tag;
        try {
            tag = HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(id), 0, 8);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "ferry-agent-" + AgentSocket.uid() + "-" + tag + ".sock");
    }
}
