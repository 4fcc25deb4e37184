package dev.ferry.core.engine;

import dev.ferry.driver.self.SelfDriver;
import dev.ferry.spi.Capabilities;
import dev.ferry.spi.ConnectRequest;
import dev.ferry.spi.Driver;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverProperties;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;

/**
 * A plugin driver that offers less than the SPI allows: the self driver behind capabilities with
 * no data layouts, no driver buffers and no pull; in {@link Mode#IOVEC} iovecs of at most
 * {@link #IOVEC_SEGMENTS} segments, in {@link Mode#CONTIGUOUS} one segment only. Every packet in
 * another form is refused with INVALID, as a minimal driver would, so a caller that ignores the
 * capabilities fails here.
 *
 * <pre>{@code
 * Driver d = new RestrictedDriver(RestrictedDriver.Mode.CONTIGUOUS);
 * }</pre>
 */
final class RestrictedDriver implements Driver {
    /** What the driver takes besides contiguous memory. */
    enum Mode { IOVEC, CONTIGUOUS }

    static final int IOVEC_SEGMENTS = 4;

    private final Mode mode;
    private final Driver self = new SelfDriver();

    RestrictedDriver(Mode mode) {
        this.mode = mode;
    }

    @Override
    public String name() {
        return mode == Mode.IOVEC ? "iovec-only" : "contiguous-only";
    }

    @Override
    public String description() {
        return "the self driver with " + (mode == Mode.IOVEC ? "iovecs of at most " + IOVEC_SEGMENTS + " segments" : "contiguous memory") + " only";
    }

    @Override
    public DriverContext newContext(Hints hints) {
        return new Context(self.newContext(hints));
    }

    private int maxSegments() {
        return mode == Mode.IOVEC ? IOVEC_SEGMENTS : 1;
    }

    /** DONE for a packet in a form this driver takes (an iovec within its segment count), else why not. */
    private Status takes(Packet p) {
        return p.form() == Packet.Form.DATA ? Status.NOT_IMPLEMENTED
                : p.form() == Packet.Form.IOVEC && p.iov().count() <= maxSegments() ? Status.DONE : Status.INVALID;
    }

    private final class Context implements DriverContext {
        private final DriverContext inner;
        /** The wrapper of each inner instance, to answer wait-any and probe-any with the wrapper. */
        private final java.util.Map<DriverInstance, Instance> wrappers = new java.util.concurrent.ConcurrentHashMap<>();
        private volatile boolean closed;

        Context(DriverContext inner) {
            this.inner = inner;
        }

        @Override
        public DriverProperties properties() {
            DriverProperties p = inner.properties();
            Capabilities c = p.capabilities();
            Capabilities restricted = Capabilities.builder()
                    .supportsData(false)
                    .supportsIovec(mode == Mode.IOVEC)
                    .maxIovecSegments(maxSegments())
                    .hasRecvAny(c.hasRecvAny())
                    .supportsWaitAny(c.supportsWaitAny())
                    .maxPacketSize(c.maxPacketSize())
                    .transport(c.transport())
                    .supportsReconnect(c.supportsReconnect())
                    .build();
            return new DriverProperties(restricted, p.profile());
        }

        @Override
        public DriverUrl init() {
            return inner.init();
        }

        @Override
        public DriverInstance newInstance() {
            DriverInstance i = inner.newInstance();
            Instance w = new Instance(this, i);
            wrappers.put(i, w);
            return w;
        }

        private Status wrapped(Status s, InstanceRef ready) {
            if (ready.instance != null) {
                ready.instance = wrappers.get(ready.instance);
            }
            return s;
        }

        @Override
        public Status recvProbeAny(InstanceRef ready) {
            return wrapped(inner.recvProbeAny(ready), ready);
        }

        @Override
        public Status recvWaitAny(InstanceRef ready) {
            return wrapped(inner.recvWaitAny(ready), ready);
        }

        @Override
        public Status recvCancelAny() {
            return inner.recvCancelAny();
        }

        @Override
        public Status acceptProbe(ConnectRequest request) {
            return inner.acceptProbe(request);
        }

        @Override
        public void close() {
            closed = true;
            inner.close();
        }
    }

    private final class Instance implements DriverInstance {
        private final Context context;
        private final DriverInstance inner;
        private volatile boolean disconnected;

        Instance(Context context, DriverInstance inner) {
            this.context = context;
            this.inner = inner;
        }

        @Override
        public Status connectAsync(DriverUrl remote) {
            return inner.connectAsync(remote);
        }

        @Override
        public Status connectWait() {
            return inner.connectWait();
        }

        @Override
        public Status disconnect() {
            disconnected = true;
            return inner.disconnect();
        }

        @Override
        public Status sendPost(Packet packet) {
            Status t = takes(packet);
            return t == Status.DONE ? inner.sendPost(packet) : t;
        }

        @Override
        public Status sendPoll(Packet packet) {
            return inner.sendPoll(packet);
        }

        @Override
        public Status recvPost(Packet packet) {
            Status t = takes(packet);
            return t == Status.DONE ? inner.recvPost(packet) : t;
        }

        @Override
        public Status recvPoll(Packet packet) {
            // a poll with nothing posted would be a buffer-based receive, which this driver has not;
            // once the instance or its context ended, it answers CLOSED as every call does
            boolean ended = disconnected || context.closed;
            return packet.form() == Packet.Form.NONE && !ended ? Status.INVALID : inner.recvPoll(packet);
        }

        @Override
        public Status recvCancel(Packet packet) {
            return inner.recvCancel(packet);
        }
    }
}
