package dev.ferry.driver.ucx;

import dev.ferry.spi.ConnectRequest;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.Status;
import org.openucx.jucx.UcxException;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * A ucx driver context: one UCP context and one UCP worker. Its URL is the worker's address;
 * instances are UCP endpoints. Every UCX call runs under one lock, because the worker is shared
 * by all instances and seed 000 lets different instances be driven from different threads; the
 * lock is uncontended in the usual one-thread-per-context use.
 *
 * <p>Connection set-up: {@code connectAsync} creates the endpoint (a local step in UCP) and sends
 * a HELLO carrying the instance's id, its context's URL, the job key and the process identity;
 * the instance is up once the peer's HELLO has arrived, because the peer's id goes into every tag
 * sent to it. A HELLO that no instance here waits for is kept and reported by
 * {@link #acceptProbe}.
 *
 * <p>Failure detection: endpoints use UCX's peer error handling where the transports offer it
 * (tcp, RDMA). UCX 1.13's shared-memory transports do not (endpoint creation is refused with
 * "no peer failure handler"); such endpoints are made without it, and the peer, necessarily on
 * this host then, is checked for being alive by its pid and start time every
 * {@code FERRY_UCX_LIVENESS_MS}.
 *
 * <p>Sleeping: wait-any sleeps in {@code ucp_worker_wait}; a shared timer signals the worker every
 * liveness period while someone sleeps (so a dead peer is still noticed), and a thread that needs
 * the lock while the sleeper holds it signals the worker first.
 */
final class UcxContext extends UcxWorker {
    UcxContext(Hints hints) {
        super(hints);
    }


    @Override
    public DriverInstance newInstance() {
        acquire();
        try {
            return life.add(() -> {
                return new UcxInstance(this, nextId++);
            });
        } finally {
            lock.unlock();
        }
    }

    // ---- registration (seed 003's validate / invalidate) ---------------------------------------

    /** Pins {@code memory} in the registration cache, so rendezvous from or into it skips ucp_mem_map. */
    @Override
    public Object register(MemorySegment memory) {
        if (memory == null || !memory.isNative() || memory.byteSize() == 0 || !enter()) {
            return null;
        }
        try {
            return rcache.acquire(memory.address(), memory.byteSize());
        } catch (UcxException e) {
            LOG.log(System.Logger.Level.DEBUG, "ucx: could not register {0} bytes: {1}", memory.byteSize(), e.getMessage());
            return null;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void deregister(Object registration) {
        if (registration instanceof RegistrationCache.Registration r && enter()) {
            try {
                rcache.release(r);
            } finally {
                lock.unlock();
            }
        }
    }

    // ---- context-wide receive -------------------------------------------------------------------

    @Override
    public Status acceptProbe(ConnectRequest request) {
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            progress();
            byte[] u = requests.poll();
            if (u == null) {
                return Status.NOT_YET;
            }
            request.url = DriverUrl.decode(u);
            return Status.DONE;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Status recvProbeAny(InstanceRef ready) {
        if (!enter()) {
            return Status.CLOSED;
        }
        try {
            drain();
            return probe(ready);
        } finally {
            lock.unlock();
        }
    }

    /** Progress until nothing more arrives (bounded), so a fair scan sees every instance with data. */
    /** Progresses the worker until it is idle (a bounded number of turns); answers whether anything moved. */
    private boolean drain() {
        int before = progressed;
        progress();
        for (int i = 0; i < DRAIN_TURNS && turn() > 0; i++) {
            // each turn takes in a bounded number of FIFO elements
        }
        return progressed != before;
    }

    /** Fair scan from where the last one stopped; lock held. */
    private Status probe(InstanceRef ready) {
        return life.probeAny(ready, UcxInstance::hasData);
    }

    @Override
    public Status recvWaitAny(InstanceRef ready) {
        long spinEnd = System.nanoTime() + SPIN_NANOS;
        while (true) {
            if (life.isClosed()) {
                return Status.CLOSED;
            }
            if (life.takeCancel()) {
                return Status.CANCELED;
            }
            acquire();
            try {
                if (life.isClosed()) {
                    return Status.CLOSED;
                }
                boolean moved = drain();
                if (probe(ready) == Status.DONE) {
                    return Status.DONE;
                }
                if (requestsArrived != requestsWaitSeen) {
                    requestsWaitSeen = requestsArrived;
                    return Status.NOT_YET; // a peer asks to connect: acceptProbe reports it
                }
                if (moved) {
                    return Status.NOT_YET; // the worker moved something on (a send's completion, a peer's FIN): the engine looks
                }
                if (System.nanoTime() - spinEnd > 0 && !life.cancelPending()) {
                    sleeping = true;
                    try {
                        worker.waitForEvents(); // returns at once when events are pending (ucp_worker_wait arms first)
                    } finally {
                        sleeping = false;
                    }
                }
            } finally {
                lock.unlock();
            }
            if (System.nanoTime() - spinEnd <= 0) {
                Thread.onSpinWait();
            }
        }
    }

    @Override
    public Status recvCancelAny() {
        return life.cancelAny(this::signalWorker);
    }

    /** Wakes a wait-any blocked in the worker. */
    private void signalWorker() {
        UcpWorker w = worker;
        if (w != null) {
            try {
                w.signal();
            } catch (RuntimeException e) {
                // closed meanwhile
            }
        }
    }

    // ---- close ----------------------------------------------------------------------------------

    @Override
    public void close() {
        UcxInstance[] all = life.close();
        if (all == null) {
            return;
        }
        if (waker != null) {
            waker.cancel(false);
        }
        if (worker != null) {
            worker.signal();
        }
        int held = 0;
        lock.lock();
        try {
            if (worker == null || helloReq == null) {
                return; // never initialised (or properties failed): nothing of ours runs in UCX
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            for (UcxInstance inst : all) {
                inst.closeWithContext(deadline);
            }
            if (helloReq != null && !helloReq.isCompleted()) {
                worker.cancelRequest(helloReq);
            }
            drain(all);
            discardUnexpected();
            held = held();
            if (rcache != null && held == 0) {
                rcache.clear();
            }
        } finally {
            if (held == 0) {
                closeUcx();
            } else {
                LOG.log(System.Logger.Level.WARNING, "ucx: " + held + " request(s) to a peer that is gone are still held by UCX,"
                        + " which cannot end them without peer error handling (not offered by its shared-memory transports):"
                        + " the UCX worker is left open, as destroying it under them aborts the process");
            }
            lock.unlock();
            if (held == 0) {
                arena.close();
            }
        }
    }

    /**
     * Lock held, at close: the requests UCX still runs. With peer error handling a forced close
     * of their endpoints has ended them; without it, one aimed at a dead peer never ends.
     */
    private int held() {
        if (peerFailureDetection) {
            return 0;
        }
        orphans.sweep();
        return sweepBulks() + orphans.size();
    }

    /** Forgets the BULK sends that have ended; answers how many still run. */
    private int sweepBulks() {
        bulks.removeIf(Rendezvous::bulkEnded);
        return bulks.size();
    }

    /** Progresses until the cancelled requests and closing endpoints are done, at most 2 s. */
    private void drain(UcxInstance[] all) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() - end < 0) {
            turn();
            boolean busy = (helloReq != null && !helloReq.isCompleted()) | orphans.sweep() | sweepBulks() > 0;
            for (UcxInstance inst : all) {
                busy |= inst.busyClosing();
            }
            if (!busy) {
                return;
            }
        }
        LOG.log(System.Logger.Level.DEBUG, "ucx: context closed with requests still in progress after 2 s");
    }

    /**
     * Takes the messages that arrived for instances already closed (a BYE, data after a
     * disconnect), so that UCX does not warn about each at worker destruction; counted in the log.
     */
    private void discardUnexpected() {
        int n = 0;
        MemorySegment scratch = null;
        for (; n < 100_000; n++) {
            org.openucx.jucx.ucp.UcpTagMessage m = worker.tagProbeNonBlocking(0, 0, true);
            if (m == null) {
                break;
            }
            long len = Math.max(1, m.getRecvLength());
            if (scratch == null || scratch.byteSize() < len) {
                scratch = arena.allocate(len, 8);
            }
            UcpRequest r = worker.recvTaggedMessageNonBlocking(scratch.address(), len, m, null);
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
            while (!r.isCompleted() && System.nanoTime() - end < 0) {
                turn();
            }
        }
        if (n > 0) {
            LOG.log(System.Logger.Level.DEBUG, "ucx: " + n + " message(s) for closed instances discarded at close");
        }
    }

}
