package dev.ferry.driver.self;

import dev.ferry.spi.Capabilities;
import dev.ferry.spi.ContextLifecycle;
import dev.ferry.spi.CpuSet;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverProperties;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.Profile;
import dev.ferry.spi.Status;
import dev.ferry.spi.Transport;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/** A self driver context: its address, its instances, and the context-wide receive calls. */
final class SelfContext implements DriverContext {
    /** Largest packet: the self driver has no inherent limit; this bounds what one copy holds up. */
    static final long MAX_PACKET_SIZE = 64L << 20;

    private final ContextLifecycle<SelfInstance> life = new ContextLifecycle<>("self driver context", SelfInstance[]::new);
    private volatile String address;
    private volatile Thread anyWaiter;
    private final java.util.concurrent.atomic.AtomicLong moved = new java.util.concurrent.atomic.AtomicLong();
    /** {@link #moved} when the last wait-any returned (one runs at a time). */
    private long movedReported;

    SelfContext(Hints hints) {
        this.rank = Objects.requireNonNull(hints, "hints").rank();
    }

    private final int rank;
    /** Contexts of this process whose instance connects to us and waits for ours (acceptProbe reports them). */
    private final java.util.concurrent.ConcurrentLinkedQueue<String> requests = new java.util.concurrent.ConcurrentLinkedQueue<>();

    /** The context at {@code from} connects to us: reported by acceptProbe; a wait-any wakes for it. */
    void requested(String from) {
        requests.add(from);
        moved.incrementAndGet(); // news for a wait-any, which answers NOT_YET
        wakeAny();
    }

    @Override
    public Status acceptProbe(dev.ferry.spi.ConnectRequest request) {
        if (life.isClosed()) {
            return Status.CLOSED;
        }
        String from;
        while ((from = requests.poll()) != null) {
            if (!served(from)) {
                request.url = DriverUrl.single(from.getBytes(StandardCharsets.UTF_8));
                request.rank = SelfRegistry.rankOf(from);
                return Status.DONE;
            }
        }
        return Status.NOT_YET;
    }

    private boolean served(String from) {
        for (SelfInstance i : life.instances()) {
            if (i.servesPeer(from)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public DriverProperties properties() {
        life.beginProperties();
        Capabilities caps = Capabilities.builder()
                .supportsData(true)
                .supportsBufSend(true)
                .supportsBufRecv(true)
                .supportsIovec(true)
                .maxIovecSegments(SelfInstance.MAX_IOVEC)
                .hasRecvAny(true)
                .supportsWaitAny(true)
                .supportsPrefetch(false)
                .maxPacketSize(MAX_PACKET_SIZE)
                .maxBufferSize(SelfRing.SLOT_SIZE)
                .transport(Transport.SELF)
                .build();
        // Orders of magnitude measured with `ferry bench driver-latency|driver-bandwidth --driver self`
        // on a 2-core development machine (see docs/architecture.md).
        return new DriverProperties(caps, new Profile(300, 40_000, CpuSet.all()));
    }

    @Override
    public synchronized DriverUrl init() {
        life.beginInit();
        address = SelfRegistry.register(this, rank);
        life.initialized();
        return DriverUrl.single(address.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public DriverInstance newInstance() {
        return life.add(() -> new SelfInstance(this));
    }

    String address() {
        return address;
    }

    /**
     * A peer moved on a send of one of our instances without a packet (copied a large packet,
     * freed room in a full ring): news for wait-any, which answers NOT_YET for it.
     */
    void sendMoved() {
        moved.incrementAndGet(); // a full fence: before the look for a waiter
        wakeAny();
    }

    /** Whether a wait-any sleeps, announced to producers (tests wait for it). */
    boolean asleep() {
        return anyWaiter != null;
    }

    /** Called by a producer after it published to one of our instances. */
    void wakeAny() {
        Thread t = anyWaiter;
        if (t != null) {
            java.util.concurrent.locks.LockSupport.unpark(t);
        }
    }

    @Override
    public Status recvProbeAny(InstanceRef ready) {
        return life.probeAny(ready, SelfInstance::hasIncoming);
    }

    /** The wait-any's sleep: {@link SelfInstance#WAIT} with parks of up to a second (its caller's bound doubles to that). */
    private static final dev.ferry.spi.IdleStrategy ANY_WAIT = SelfInstance.WAIT.withSleep(dev.ferry.spi.IdleStrategy.park(1_000_000_000L));

    @Override
    public Status recvWaitAny(InstanceRef ready) {
        Thread me = Thread.currentThread();
        long sleepNanos = 10_000_000L;
        long start = System.nanoTime(), now = start;
        for (int round = 0; ; round++) {
            if (life.takeCancel()) {
                return Status.CANCELED;
            }
            long m = moved.get();
            Status s = recvProbeAny(ready);
            if (s != Status.NOT_YET) {
                movedReported = m;
                return s;
            }
            if (m != movedReported) {
                movedReported = m;
                return Status.NOT_YET; // a peer moved a send of ours on: the engine looks
            }
            if (SelfInstance.WAIT.clockDue(round, now - start)) {
                now = System.nanoTime();
            }
            if (!SelfInstance.WAIT.parks(now - start)) {
                SelfInstance.WAIT.idle(now - start);
                continue;
            }
            anyWaiter = me;
            try {
                // Re-check after announcing ourselves: a post or a moved send that raced with the announcement is seen here.
                if (!life.cancelPending() && moved.get() == m && recvProbeAny(ready) == Status.NOT_YET) {
                    // producers wake us; the bound, doubling to a second, only caps a missed wake
                    ANY_WAIT.idle(now - start, sleepNanos);
                    sleepNanos = Math.min(2 * sleepNanos, 1_000_000_000L);
                }
            } finally {
                anyWaiter = null;
            }
        }
    }

    @Override
    public Status recvCancelAny() {
        return life.cancelAny(this::wakeAny);
    }

    @Override
    public void close() {
        SelfInstance[] all = life.close();
        if (all == null) {
            return;
        }
        if (address != null) {
            SelfRegistry.unregister(address); // first: a connect that comes while the instances end finds none
        }
        for (SelfInstance i : all) {
            i.contextClosed();
        }
        wakeAny();
    }

    @Override
    public String toString() {
        return "self context " + address;
    }
}
