package dev.ferry.spi;

/**
 * Nominal performance of a driver in a context (seed 000's {@code nm_drv_profile_s}); protocol
 * selection and multi-rail splitting read it, and {@code ferry info} prints it.
 *
 * <pre>{@code
 * Profile p = new Profile(150, 12_000, CpuSet.all());
 * }</pre>
 *
 * @param latencyNs     one-way latency of a small packet, in nanoseconds
 * @param bandwidthMBps sustained bandwidth of large packets, in 10^6 bytes per second
 * @param nearestCpus   the CPUs closest to the device (all CPUs where locality does not apply)
 */
public record Profile(long latencyNs, long bandwidthMBps, CpuSet nearestCpus) {
    public Profile {
        if (latencyNs <= 0) {
            throw new IllegalArgumentException("latencyNs must be positive: " + latencyNs);
        }
        if (bandwidthMBps <= 0) {
            throw new IllegalArgumentException("bandwidthMBps must be positive: " + bandwidthMBps);
        }
        if (nearestCpus == null) {
            throw new IllegalArgumentException("nearestCpus is required");
        }
    }
}
