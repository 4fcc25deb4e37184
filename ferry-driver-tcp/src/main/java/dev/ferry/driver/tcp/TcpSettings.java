package dev.ferry.driver.tcp;

import dev.ferry.spi.Setting;

import java.util.List;

/** The settings of the tcp driver. */
final class TcpSettings {
    static final Setting INTERFACES = new Setting("FERRY_TCP_INTERFACES", null,
            "tcp: interfaces to use, by name or CIDR, comma-separated (like btl_tcp_if_include); unset: all that are up",
            Setting.Type.LIST, "tcp driver");
    static final Setting JOB_KEY = dev.ferry.spi.JobSettings.JOB_KEY;
    static final Setting CONNECT_TIMEOUT_MS = new Setting("FERRY_TCP_CONNECT_TIMEOUT_MS", "20000",
            "tcp: milliseconds a connection set-up may take before the instance is broken",
            Setting.Type.NUMBER, "tcp driver");
    static final Setting SNDBUF = new Setting("FERRY_TCP_SNDBUF", "0", "tcp: socket send buffer bytes (0: the kernel's autotuning)",
            Setting.Type.BYTES, "tcp driver");
    static final Setting RCVBUF = new Setting("FERRY_TCP_RCVBUF", "0", "tcp: socket receive buffer bytes (0: the kernel's autotuning)",
            Setting.Type.BYTES, "tcp driver");
    static final Setting KEEPALIVE_S = new Setting("FERRY_TCP_KEEPALIVE_S", "10",
            "tcp: seconds of silence before keepalive probes; a silent dead peer is broken after this plus 3 probes 2 s apart",
            Setting.Type.NUMBER, "tcp driver");

    static final Setting SOCKET_CALLS = new Setting("FERRY_TCP_SOCKET_CALLS", "direct",
            "tcp: how reads and writes of small frames reach the kernel: direct (recv and send on the socket's descriptor through FFM; Linux) or nio (the channel's own calls)",
            Setting.Type.CHOICE, "tcp driver");

    static final Setting TLS = new Setting("FERRY_TCP_TLS", "off",
            "tcp: on to encrypt and authenticate every connection with TLS 1.3 (keys made per rank, trusted through the job key); for untrusted networks",
            Setting.Type.CHOICE, "tcp driver");

    private TcpSettings() {
    }

    static List<Setting> all() {
        return List.of(INTERFACES, JOB_KEY, CONNECT_TIMEOUT_MS, SNDBUF, RCVBUF, KEEPALIVE_S, SOCKET_CALLS, TLS);
    }
}
