package dev.ferry.launch.pmi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This node's identity, for locality: the host name plus the kernel's boot id (so that two hosts
 * of the same name, or a host before and after a reboot, differ), or FERRY_NODE_ID when set.
 *
 * <pre>{@code
 * String id = NodeId.current();        // e.g. "n042/5f2c9a1e"
 * }</pre>
 */
public final class NodeId {

    private NodeId() {
    }


    /**
     * The node identity of {@code rank} from given values rather than the environment:
     * {@code nodeId} (FERRY_NODE_ID) or this machine's, then {@code #n} with n = rank / K when
     * {@code ranksPerNode} (FERRY_RANKS_PER_NODE) is K. Either may be null.
     */
    public static String of(int rank, String nodeId, String ranksPerNode) {
        String k = ranksPerNode;
        String node = nodeId != null && !nodeId.isBlank() ? nodeId.strip() : machine();
        if (k == null || k.isBlank()) {
            return node;
        }
        int per;
        try {
            per = Integer.parseInt(k.strip());
        } catch (NumberFormatException e) {
            per = -1;
        }
        if (per < 1) {
            throw new IllegalArgumentException(dev.ferry.launch.LaunchSettings.RANKS_PER_NODE.name() + " must be a positive number of ranks, not '" + k + "'");
        }
        return node + "#" + rank / per;
    }

    /** This node's identity from the environment's settings. */
    public static String current() {
        return current(dev.ferry.spi.Settings.fromEnvironment());
    }

    /** This node's identity: FERRY_NODE_ID in {@code settings}, else this machine's. */
    public static String current(dev.ferry.spi.Settings settings) {
        String forced = settings.value(dev.ferry.launch.LaunchSettings.NODE_ID);
        return forced != null && !forced.isBlank() ? forced.strip() : machine();
    }

    /** This machine: host name and boot id. */
    private static String machine() {
        String boot = read("/proc/sys/kernel/random/boot_id").replace("-", "");
        return hostName() + "/" + (boot.length() > 8 ? boot.substring(0, 8) : boot);
    }

    /** The host name as the kernel knows it (no name-service lookup). */
    public static String hostName() {
        String h = read("/proc/sys/kernel/hostname");
        if (h.isEmpty()) {
            h = System.getenv().getOrDefault("HOSTNAME", "localhost");
        }
        return h;
    }

    private static String read(String path) {
        try {
            return Files.readString(Path.of(path)).strip();
        } catch (IOException | SecurityException e) {
            return "";
        }
    }
}
