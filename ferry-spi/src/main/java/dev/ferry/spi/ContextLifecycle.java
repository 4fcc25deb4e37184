package dev.ferry.spi;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The bookkeeping of seed 000's context life cycle, which every driver context needs and none
 * should write again: properties asked exactly once and before init, init once, instances only
 * after init, close last and once, every call after close an error. Instances are kept in a
 * copy-on-write array, so probe-any and wait-any read them without a lock.
 *
 * <pre>{@code
 * private final ContextLifecycle<MyInstance> life = new ContextLifecycle<>("my driver context", MyInstance[]::new);
 *
 * public DriverProperties properties() { life.beginProperties(); return ...; }
 * public DriverUrl init() { life.beginInit(); DriverUrl url = ...; life.initialized(); return url; }
 * public DriverInstance newInstance() { return life.add(() -> new MyInstance(this)); }
 * public void close() { if (life.closeEach(MyInstance::contextClosed)) wakeWaiters(); }
 * // probe-any, round robin (a method reference that captures nothing allocates nothing)
 * public Status recvProbeAny(InstanceRef ready) { return life.probeAny(ready, MyInstance::hasIncoming); }
 * public Status recvCancelAny() { return life.cancelAny(this::wakeWaiters); }
 * // in recvWaitAny's loop: if (life.takeCancel()) return Status.CANCELED;
 * }</pre>
 *
 * @param <I> the driver's instance type
 */
public final class ContextLifecycle<I> {
    private final String what;
    private boolean propertiesAsked;
    private boolean initialized;
    private volatile boolean closed;
    private volatile I[] instances;
    /** Where the next {@link #nextReady} scan starts: after the instance served last. */
    private int nextProbe;
    /** A wait-any was asked to return CANCELED ({@link #cancelAny}). */
    private final AtomicBoolean cancelAny = new AtomicBoolean();

    /**
     * @param what     how errors name the context, e.g. "shm driver context"
     * @param newArray the instance array constructor, e.g. {@code MyInstance[]::new}
     */
    public ContextLifecycle(String what, IntFunction<I[]> newArray) {
        this.what = Objects.requireNonNull(what, "what");
        this.instances = newArray.apply(0);
    }

    /** At the start of {@code properties()}: open, and asked for the first time. */
    public synchronized void beginProperties() {
        checkOpen();
        if (propertiesAsked) {
            throw new IllegalStateException("properties() is asked exactly once per context");
        }
        propertiesAsked = true;
    }

    /** At the start of {@code init()}: open, properties asked, not initialised yet. */
    public synchronized void beginInit() {
        checkOpen();
        if (!propertiesAsked) {
            throw new IllegalStateException("properties() must be asked before init()");
        }
        if (initialized) {
            throw new IllegalStateException("init() was already called on this context");
        }
    }

    /** At the end of a successful {@code init()}. */
    public synchronized void initialized() {
        initialized = true;
    }

    /** For calls that need init first ({@code newInstance}, {@code allocate}): open and initialised. */
    public synchronized void requireInitialized(String call) {
        checkOpen();
        if (!initialized) {
            throw new IllegalStateException("init() must be called before " + call);
        }
    }

    /** {@code newInstance()}: checks, creates, and adds the instance. */
    public synchronized I add(Supplier<I> create) {
        requireInitialized("newInstance()");
        I inst = create.get();
        I[] grown = Arrays.copyOf(instances, instances.length + 1);
        grown[grown.length - 1] = inst;
        instances = grown;
        return inst;
    }

    /**
     * An instance that was disconnected is no longer scanned or counted (an engine that closes idle
     * connections makes new instances all the time). Removing one not there does nothing.
     */
    public synchronized void remove(I inst) {
        I[] all = instances;
        for (int i = 0; i < all.length; i++) {
            if (all[i] == inst) {
                I[] less = Arrays.copyOf(all, all.length - 1);
                System.arraycopy(all, i + 1, less, i, all.length - i - 1);
                instances = less;
                return;
            }
        }
    }

    /** The instances, in creation order; never modified (a new array replaces it). */
    public I[] instances() {
        return instances;
    }

    /**
     * Probe-any's fair scan: the first instance, starting after the one this returned last, for
     * which {@code ready} holds (it is asked of each in turn and may take what it finds, e.g. a
     * readiness hint), or null. Called by one receive-any caller at a time, as seed 000 lets.
     */
    public I nextReady(Predicate<? super I> ready) {
        I[] all = instances;
        int n = all.length;
        for (int k = 0; k < n; k++) {
            int i = (nextProbe + k) % n;
            if (ready.test(all[i])) {
                nextProbe = i + 1;
                return all[i];
            }
        }
        return null;
    }

    /**
     * Seed 000's probe-any over {@link #nextReady}: CLOSED once closed; DONE with
     * {@code ready.instance} set to the next instance for which {@code isReady} holds; else NOT_YET.
     */
    public Status probeAny(InstanceRef ready, Predicate<? super I> isReady) {
        if (closed) {
            return Status.CLOSED;
        }
        I next = nextReady(isReady);
        if (next == null) {
            return Status.NOT_YET;
        }
        ready.instance = (DriverInstance) next;
        return Status.DONE;
    }

    /**
     * Seed 000's cancel-any: CLOSED once closed; else marks the wait-any canceled, runs
     * {@code wake} (which ends the driver's blocking wait), and answers DONE.
     */
    public Status cancelAny(Runnable wake) {
        if (closed) {
            return Status.CLOSED;
        }
        cancelAny.set(true);
        wake.run();
        return Status.DONE;
    }

    /** For the wait-any: whether a cancel-any came since it last looked (the mark is taken). */
    public boolean takeCancel() {
        return cancelAny.compareAndSet(true, false);
    }

    /** For the wait-any's sleep: whether a cancel-any is waiting to be taken. */
    public boolean cancelPending() {
        return cancelAny.get();
    }

    public boolean isClosed() {
        return closed;
    }

    /** Throws IllegalStateException once closed. */
    public void checkOpen() {
        if (closed) {
            throw new IllegalStateException(what + " is closed");
        }
    }

    /**
     * {@code close()} for a driver whose instances each end on their own: runs {@code each} on
     * every instance, in creation order; false (and nothing run) when the context was closed
     * already, so the caller's own teardown runs once too.
     */
    public boolean closeEach(Consumer<? super I> each) {
        I[] all = close();
        if (all == null) {
            return false;
        }
        for (I i : all) {
            each.accept(i);
        }
        return true;
    }

    /** {@code close()}: the instances to tear down, or null when the context was closed already. */
    public synchronized I[] close() {
        if (closed) {
            return null;
        }
        closed = true;
        return instances;
    }
}
