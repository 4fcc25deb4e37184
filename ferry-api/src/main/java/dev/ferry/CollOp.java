package dev.ferry;

import java.util.List;

/**
 * A collective in flight at this rank: it runs its {@link Schedule} round by round in the engine's
 * thread of control, advanced by every progress pass (whoever makes it: a waiting caller, or the
 * progress thread while the program computes), and completes as any request does. A transfer that
 * fails (a dead peer) fails the collective, naming the peer; its other receives are withdrawn.
 */
final class CollOp extends Request {
    private static final Status DONE = Status.ok(Ferry.ANY_SOURCE, Ferry.ANY_TAG, 0, 1);

    private final Comm comm;
    private final String what;
    private final int tag;
    private final Schedule schedule;
    private final List<Schedule.Round> rounds;
    /**
     * A persistent collective's: its schedule and temporaries are kept between runs, and each
     * transfer's request is made on the first run and set up again on the next.
     */
    private final boolean persistent;
    private Request[][] transfers;
    /** What starts it in the engine's thread of control, made once. */
    final Runnable starter;
    /** Its Flight Recorder event while one is recorded, begun when it started; else null. */
    private FerryEvents.Collective event;
    private int round = -1;
    private Request[] inflight = new Request[2];
    private int inflightCount;
    private volatile Status finished;

    CollOp(Messaging messaging, Comm comm, String what, int tag, Schedule schedule) {
        this(messaging, comm, what, tag, schedule, false);
    }

    CollOp(Messaging messaging, Comm comm, String what, int tag, Schedule schedule, boolean persistent) {
        super(messaging);
        this.comm = comm;
        this.what = what;
        this.tag = tag;
        this.schedule = schedule;
        this.rounds = schedule.rounds();
        this.persistent = persistent;
        this.transfers = persistent ? new Request[rounds.size()][] : null;
        this.starter = () -> messaging.begin(this);
        this.event = FerryEvents.collective();
    }

    /** Sets a persistent collective up to run again from its first round (its last run completed). */
    void restart() {
        event = FerryEvents.collective();
        reset();
        round = -1;
        inflightCount = 0;
        finished = null;
    }

    /** Gives a persistent collective's temporaries back (it runs no more). */
    void release() {
        schedule.release();
    }

    /** The communicator's internal tag its messages carry. */
    int tag() {
        return tag;
    }

    @Override
    Status poll() {
        return finished;
    }

    /**
     * Moves on as far as the transfers allow (engine's thread of control); true once finished.
     */
    boolean advance() {
        if (finished != null) {
            return true;
        }
        try {
            while (true) {
                for (int i = 0; i < inflightCount; i++) {
                    Status s = inflight[i].current();
                    if (s == null) {
                        return false;
                    }
                    if (s.error() != null) {
                        fail(s.error(), s.failure());
                        return true;
                    }
                }
                inflightCount = 0;
                if (++round == rounds.size()) {
                    if (!persistent) {
                        schedule.release(); // every transfer completed: nothing touches the temporaries now
                    }
                    finish(DONE);
                    return true;
                }
                start(rounds.get(round));
            }
        } catch (FerryException e) {
            fail(e.errorClass(), e.getMessage());
            return true;
        } catch (RuntimeException e) {
            fail(ErrorClass.INTERN, e.toString());
            return true;
        }
    }

    private void start(Schedule.Round r) {
        for (int i = 0; i < r.locals.size(); i++) {
            r.locals.get(i).run();
        }
        if (inflight.length < r.transfers) {
            inflight = new Request[r.transfers];
        }
        if (persistent) {
            startAgain(r);
            return;
        }
        for (int i = 0; i < r.transfers; i++) {
            // receives first within the round would not matter: every transfer is posted before any is waited for
            inflight[inflightCount++] = r.sends[i] ? comm.collectiveSend(r.memory[i], r.peers[i], tag)
                    : comm.collectiveRecv(r.memory[i], r.peers[i], tag);
        }
    }

    /** A persistent collective's round: its transfers' requests, made on the first run, set up again. */
    private void startAgain(Schedule.Round r) {
        Request[] t = transfers[round];
        if (t == null) {
            t = transfers[round] = new Request[r.transfers];
            for (int i = 0; i < r.transfers; i++) {
                t[i] = r.sends[i] ? new SendOp(messaging, comm, r.peers[i], tag, false) : new RecvOp(messaging, comm, 0, null, null, 1, 0, 0);
            }
        }
        for (int i = 0; i < r.transfers; i++) {
            if (r.sends[i]) {
                comm.sendPrepared((SendOp) t[i], r.memory[i], r.peers[i], tag);
            } else {
                comm.recvPrepared((RecvOp) t[i], r.memory[i], 1, r.peers[i], tag);
            }
            inflight[inflightCount++] = t[i];
        }
    }

    Comm comm() {
        return comm;
    }

    /** A member of the communicator died: the collective cannot complete (engine's thread of control). */
    void memberFailed(String why) {
        if (finished == null) {
            fail(ErrorClass.PROC_FAILED, why);
        }
    }

    /** Fails it with {@code c}: its receives still posted are withdrawn (engine's thread of control). */
    void fail(ErrorClass c, String why) {
        for (int i = 0; i < inflightCount; i++) {
            if (inflight[i] instanceof RecvOp r && r.current() == null) {
                r.cancelPosted(); // nothing lands in the program's buffers after the failure
            }
        }
        inflightCount = 0;
        finish(Status.failed(Ferry.ANY_SOURCE, Ferry.ANY_TAG, c, what + " on " + comm + " failed: " + why));
    }

    private void finish(Status s) {
        FerryEvents.Collective e = event;
        if (e != null) {
            event = null;
            FerryEvents.commit(e, comm, what, bytesSent(), persistent);
        }
        finished = s;
        wake();
    }

    /** The bytes its schedule sends from this rank (for its event). */
    private long bytesSent() {
        long n = 0;
        for (Schedule.Round r : rounds) {
            for (int i = 0; i < r.transfers; i++) {
                n += r.sends[i] ? r.memory[i].byteSize() : 0;
            }
        }
        return n;
    }

    @Override
    public String toString() {
        return what + " on " + comm;
    }
}
