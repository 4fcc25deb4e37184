package dev.ferry;

/**
 * A request made once and started any number of times (MPI's persistent requests): each
 * {@link #start()} begins one round of the same operation, which completes through the request
 * as any other does; after it completed, the request may be started again. A request never
 * started, or whose round completed, is inactive: waiting on it returns at once.
 *
 * <pre>{@code
 * PersistentRequest r = world.psendInit(data, 8, 1024, Datatype.DOUBLE, 1, 0);
 * for (int step = 0; step < steps; step++) {
 *     r.start();
 *     ... // compute, readying partitions
 *     r.await();
 * }
 * r.free();
 * }</pre>
 */
public abstract sealed class PersistentRequest extends Request permits PartitionedRequest, PersistentCollective, PersistentSend, PersistentRecv {
    /** An inactive request's status: empty, as MPI's. */
    static final Status INACTIVE = Status.ok(Ferry.ANY_SOURCE, Ferry.ANY_TAG, 0, 1);

    /** Rounds started; 0 before the first. */
    private volatile int round;
    private volatile boolean freed;

    PersistentRequest(Messaging messaging) {
        super(messaging);
    }

    /**
     * Begins a round.
     *
     * @throws FerryException REQUEST when the last round has not completed, or the request was freed
     */
    public final synchronized void start() {
        if (freed) {
            throw FerryException.arg(ErrorClass.REQUEST, this + " was freed");
        }
        if (round > 0 && current() == null) {
            throw FerryException.arg(ErrorClass.REQUEST, this + " was started while active: its round " + round + " has not completed");
        }
        reset();
        round++;
        begin(round);
    }

    /** Starts every request, in order (MPI's {@code MPI_Startall}). */
    public static void startAll(PersistentRequest... requests) {
        for (PersistentRequest r : requests) {
            r.start();
        }
    }

    /** Whether a round is in flight: started and not yet complete. */
    public final boolean isActive() {
        return round > 0 && current() == null;
    }

    /**
     * Lets the request go (MPI's {@code MPI_Request_free}): it cannot be started again.
     *
     * @throws FerryException REQUEST while a round is in flight
     */
    public final synchronized void free() {
        if (freed) {
            return;
        }
        if (isActive()) {
            throw FerryException.arg(ErrorClass.REQUEST, this + " was freed while active: wait for its round first");
        }
        freed = true;
        release();
    }

    /** The round in flight or last completed; 0 before the first start. */
    final int round() {
        return round;
    }

    @Override
    final Status poll() {
        int r = round;
        return r == 0 ? INACTIVE : poll(r);
    }

    /** Begins round {@code round} (under the request's lock). */
    abstract void begin(int round);

    /** Round {@code round}'s status once complete, else null. */
    abstract Status poll(int round);

    /** Gives back what the request holds once freed. */
    abstract void release();
}
