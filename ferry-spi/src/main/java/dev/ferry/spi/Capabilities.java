package dev.ferry.spi;

/**
 * What a driver can do (seed 000's {@code nm_minidriver_capabilities_s}).
 *
 * <p>The caller reads these to choose how it sends and receives: buffer-based when
 * {@link #supportsBufSend()}/{@link #supportsBufRecv()}, data-based when {@link #supportsData()},
 * iovec-based otherwise (with one segment when {@link #supportsIovec()} is false).
 *
 * <pre>{@code
 * Capabilities caps = Capabilities.builder()
 *     .supportsBufSend(true).supportsBufRecv(true).maxBufferSize(8192)
 *     .supportsIovec(true).maxIovecSegments(64)
 *     .hasRecvAny(true).supportsWaitAny(true)
 *     .maxPacketSize(64L << 20).transport(Transport.LOCAL)
 *     .build();
 * }</pre>
 *
 * @param supportsData      data-based send and receive ({@link DataLayout}) are implemented
 * @param supportsBufSend   buffer-based send: {@code sendBufGet} then {@code sendBufPost}
 * @param supportsBufRecv   buffer-based receive: {@code recvPoll} with nothing posted, then {@code recvBufRelease}
 * @param supportsIovec     iovecs of more than one segment, for sending and receiving alike
 * @param maxIovecSegments  the most segments one iovec may have (1 when iovecs are not supported)
 * @param hasRecvAny        context-wide {@code recvProbeAny} is implemented
 * @param supportsWaitAny   context-wide blocking {@code recvWaitAny} (and {@code recvCancelAny}) are implemented
 * @param supportsPrefetch  {@code sendPrefetch}/{@code recvPrefetch} and their unfetch do real work
 * @param maxPacketSize     the largest packet, in bytes; a larger one is {@link Status#INVALID}
 * @param maxBufferSize     the largest driver buffer for buffer-based send and receive (0 without them)
 * @param transport         what the driver reaches: same process, same node, or any node
 * @param pullDataSize      bytes of pull data {@code sendExpose} writes (0: no target-initiated pull;
 *                          the driver moves large packets by {@code sendPost} alone)
 * @param supportsReconnect after both ends {@code disconnect}, new instances of the same two contexts
 *                          connect again (a peer's new {@code connectAsync} is reported by
 *                          {@code acceptProbe} even while an older connection to it is still open
 *                          here), so the engine may close idle connections
 */
public record Capabilities(
        boolean supportsData,
        boolean supportsBufSend,
        boolean supportsBufRecv,
        boolean supportsIovec,
        int maxIovecSegments,
        boolean hasRecvAny,
        boolean supportsWaitAny,
        boolean supportsPrefetch,
        long maxPacketSize,
        long maxBufferSize,
        Transport transport,
        int pullDataSize,
        boolean supportsReconnect) {

    public Capabilities {
        if (maxPacketSize <= 0) {
            throw new IllegalArgumentException("maxPacketSize must be positive: " + maxPacketSize);
        }
        if (maxIovecSegments < 1) {
            throw new IllegalArgumentException("maxIovecSegments must be at least 1: " + maxIovecSegments);
        }
        if (!supportsIovec && maxIovecSegments != 1) {
            throw new IllegalArgumentException("maxIovecSegments must be 1 without iovec support: " + maxIovecSegments);
        }
        if ((supportsBufSend || supportsBufRecv) != (maxBufferSize > 0)) {
            throw new IllegalArgumentException("maxBufferSize must be positive exactly when buffer-based transfers are supported: " + maxBufferSize);
        }
        if (maxBufferSize > maxPacketSize) {
            throw new IllegalArgumentException("maxBufferSize " + maxBufferSize + " exceeds maxPacketSize " + maxPacketSize);
        }
        if (supportsWaitAny && !hasRecvAny) {
            throw new IllegalArgumentException("supportsWaitAny requires hasRecvAny");
        }
        if (pullDataSize < 0 || pullDataSize % 8 != 0) {
            throw new IllegalArgumentException("pullDataSize must be a non-negative multiple of 8: " + pullDataSize);
        }
        if (transport == null) {
            throw new IllegalArgumentException("transport is required");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder whose defaults are seed 000's zero-initialised capabilities (contiguous data only). */
    public static final class Builder {
        private boolean supportsData;
        private boolean supportsBufSend;
        private boolean supportsBufRecv;
        private boolean supportsIovec;
        private int maxIovecSegments = 1;
        private boolean hasRecvAny;
        private boolean supportsWaitAny;
        private boolean supportsPrefetch;
        private long maxPacketSize;
        private long maxBufferSize;
        private Transport transport;
        private int pullDataSize;
        private boolean supportsReconnect;

        public Builder supportsData(boolean v) { supportsData = v; return this; }
        public Builder supportsBufSend(boolean v) { supportsBufSend = v; return this; }
        public Builder supportsBufRecv(boolean v) { supportsBufRecv = v; return this; }
        public Builder supportsIovec(boolean v) { supportsIovec = v; return this; }
        public Builder maxIovecSegments(int v) { maxIovecSegments = v; return this; }
        public Builder hasRecvAny(boolean v) { hasRecvAny = v; return this; }
        public Builder supportsWaitAny(boolean v) { supportsWaitAny = v; return this; }
        public Builder supportsPrefetch(boolean v) { supportsPrefetch = v; return this; }
        public Builder maxPacketSize(long v) { maxPacketSize = v; return this; }
        public Builder maxBufferSize(long v) { maxBufferSize = v; return this; }
        public Builder transport(Transport v) { transport = v; return this; }
        public Builder pullDataSize(int v) { pullDataSize = v; return this; }
        public Builder supportsReconnect(boolean v) { supportsReconnect = v; return this; }

        public Capabilities build() {
            return new Capabilities(supportsData, supportsBufSend, supportsBufRecv, supportsIovec, maxIovecSegments,
                    hasRecvAny, supportsWaitAny, supportsPrefetch, maxPacketSize, maxBufferSize, transport, pullDataSize, supportsReconnect);
        }
    }
}
