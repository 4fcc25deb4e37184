package dev.ferry.driver.ucx;

import dev.ferry.spi.Transport;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The UCX transports a context found ({@code ucp_context_print_info}'s resources, parsed by
 * {@link #transports}), their reach and their order of latency and bandwidth; also which
 * transports a UCX_TLS value may bring in. UCP 1.13 exposes no per-transport performance
 * estimate to JUCX, so the orders come from a table: shared memory and tcp as measured on the
 * development machine through this driver (docs/architecture.md), RDMA as the order of an
 * InfiniBand EDR/HDR link.
 *
 * @param transport     LOCAL when only shared-memory transports are there (the context reaches
 *                      this node alone), REMOTE when a network transport is
 * @param latencyNs     one-way latency order of the best transport of that reach
 * @param bandwidthMBps bandwidth order of the best transport of that reach
 * @param rdma          an RDMA transport (InfiniBand, RoCE) is among them
 * @param oneSidedGets  UCP gets are real one-sided reads (RDMA or xpmem); UCX 1.13 emulates them
 *                      with active messages over the other transports
 */
record TransportProfile(Transport transport, long latencyNs, long bandwidthMBps, boolean rdma, boolean oneSidedGets) {
    private static final List<String> SHARED_MEMORY = List.of("sysv", "posix", "cma", "knem", "xpmem", "self");
    private static final List<String> RDMA = List.of("rc", "rc_verbs", "rc_mlx5", "rc_x", "dc", "dc_mlx5", "dc_x", "ud", "ud_verbs", "ud_mlx5", "ud_x");

    static TransportProfile of(List<String> tlDevices) {
        boolean network = false;
        boolean rdma = false;
        boolean xpmem = false;
        long lat = Long.MAX_VALUE;
        long bw = 0;
        for (String td : tlDevices) {
            String tl = td.contains("/") ? td.substring(0, td.indexOf('/')) : td;
            if (SHARED_MEMORY.contains(tl)) {
                xpmem |= tl.equals("xpmem");
                continue;
            }
            network = true;
            if (RDMA.contains(tl)) {
                rdma = true;
                lat = Math.min(lat, 2_000);
                bw = Math.max(bw, 10_000);
            } else if (tl.equals("tcp")) {
                lat = Math.min(lat, 7_000);
                bw = Math.max(bw, 3_000);
            } else {
                lat = Math.min(lat, 10_000);
                bw = Math.max(bw, 1_000);
            }
        }
        if (network) {
            return new TransportProfile(Transport.REMOTE, lat, bw, rdma, rdma || xpmem);
        }
        return new TransportProfile(Transport.LOCAL, 500, 10_000, false, xpmem);
    }

    /** Whether the transports asked for (FERRY_UCX_TLS, else UCX_TLS, else all) may include UCX's mm transports. */
    static boolean mayUseSharedMemory(String tls) {
        String t = tls != null && !tls.isBlank() ? tls : System.getenv("UCX_TLS");
        if (t == null || t.isBlank()) {
            return true;
        }
        t = t.strip();
        if (t.startsWith("^")) {
            return !t.matches("\\^(.*,)?(sm|shm|mm)(,.*)?");
        }
        return t.matches("(.*,)?(all|sm|shm|mm|posix|sysv)(,.*)?");
    }

    /** The transport/device names of ucp_context_print_info's resource lines ("tcp/lo", "posix/memory"). */
    static List<String> transports(String contextInfo) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("resource\\s+\\d+\\s*:.*?--\\s+(\\S+)").matcher(contextInfo);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** An InfiniBand or RoCE device is there (both appear under /sys/class/infiniband). */
    static boolean rdmaDevicePresent() {
        try (var s = java.nio.file.Files.list(java.nio.file.Path.of("/sys/class/infiniband"))) {
            return s.findAny().isPresent();
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }
}
