package dev.ferry.core.gate;

/**
 * The eager credits a rank grants all its peers together ({@code FERRY_EAGER_POOL}): what they
 * may leave here unreceived at once beyond one largest eager message each, whatever their number.
 * A peer starts with that one message's worth and asks when a message finds too few; it is
 * granted up to {@code FERRY_EAGER_CREDITS} while the pool lasts, and keeps its grant (its
 * credits come back as its messages are received) until the job ends. A peer refused waits for
 * its credits to come back, or sends rendezvous envelopes when the receiver keeps them all.
 *
 * <pre>{@code
 * EagerPool pool = new EagerPool(16 << 20);
 * long g = pool.grant(262144);    // 262144 while 16 MiB last, less once they run short, then 0
 * }</pre>
 *
 * <p>Used in the engine's thread of control (gates parse there); synchronized all the same, being
 * rare.
 */
public final class EagerPool {
    private final long size;
    private long granted;

    public EagerPool(long size) {
        if (size <= 0) {
            throw new IllegalArgumentException("an eager pool needs a positive size, not " + size);
        }
        this.size = size;
    }

    /** Takes at most {@code want} bytes of credits from the pool: what it gives (0 when it is spent). */
    public synchronized long grant(long want) {
        long g = Math.max(0, Math.min(want, size - granted));
        granted += g;
        return g;
    }

    /** Credits granted now, to all peers. */
    public synchronized long granted() {
        return granted;
    }

    public long size() {
        return size;
    }
}
