package dev.ferry.driver.ucx;

import dev.ferry.spi.Transport;

import java.util.List;

/**
 * The reach and the order of latency and bandwidth of the UCX transports a context found
 * ({@code ucp_context_print_info}'s resources). UCP 1.13 exposes no per-transport performance
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

    /** An InfiniBand or RoCE device is there (both appear under /sys/class/infiniband). */
    static boolean rdmaDevicePresent() {
        try (var s = java.nio.file.Files.list(java.nio.file.Path.of("/sys/class/infiniband"))) {
            return s.findAny().isPresent();
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }
}
