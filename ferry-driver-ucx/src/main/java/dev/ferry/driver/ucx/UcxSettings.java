package dev.ferry.driver.ucx;

import dev.ferry.spi.Setting;

import java.util.List;

/** The settings of the ucx driver. UCX's own UCX_* variables apply as well. */
final class UcxSettings {
    static final Setting TLS = new Setting("FERRY_UCX_TLS", null,
            "ucx: the UCX transports to use (UCX_TLS syntax, e.g. 'sm' or 'tcp' or 'rc,sm'); unset: UCX_TLS, else all",
            Setting.Type.LIST, "ucx driver");
    static final Setting BUFFER = new Setting("FERRY_UCX_BUFFER", "8192",
            "ucx: bytes of a driver buffer; packets up to this size go eagerly, larger ones by a zero-copy UCP get",
            Setting.Type.BYTES, "ucx driver");
    static final Setting PULL = new Setting("FERRY_UCX_PULL", "auto",
            "ucx: how a receiver pulls a packet larger than a buffer: 'get' (UCP gets with the sender's remote keys), 'tag' (UCX's"
            + " tagged rendezvous, which reads with cma where UCP gets are emulated), 'auto' (get with an RDMA transport, else tag);"
            + " an exposure (FERRY_RNDV_PULL) always sends its bytes as a tagged message too, taken by tag where the target's memory is one range",
            Setting.Type.CHOICE, "ucx driver");
    static final Setting RCACHE_BYTES = new Setting("FERRY_UCX_RCACHE_BYTES", "1073741824",
            "ucx: bytes of idle memory registrations kept for reuse (least recently used leave first); 0: none kept",
            Setting.Type.BYTES, "ucx driver");
    static final Setting LIVENESS_MS = new Setting("FERRY_UCX_LIVENESS_MS", "100",
            "ucx: how often a peer on this host reached without UCX's peer failure detection (shared-memory transports) is checked for being alive",
            Setting.Type.NUMBER, "ucx driver");
    static final Setting JOB_KEY = dev.ferry.spi.JobSettings.JOB_KEY;

    private UcxSettings() {
    }

    static List<Setting> all() {
        return List.of(TLS, BUFFER, PULL, RCACHE_BYTES, LIVENESS_MS, JOB_KEY);
    }
}
