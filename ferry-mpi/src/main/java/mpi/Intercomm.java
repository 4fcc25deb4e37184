package mpi;

/**
 * An intercommunicator: two disjoint groups, point-to-point addressing the remote group's ranks,
 * and the blocking collectives MPI defines between groups (barrier, bcast, reduce, allReduce,
 * gather(v), scatter(v), allGather(v), allToAll(v); a rooted one takes {@link MPI#ROOT} at the root and
 * {@link MPI#PROC_NULL} at the rest of its group). Made by {@link Comm#createIntercomm} on the
 * peer communicator; {@link #merge} makes an intracommunicator of both groups. The dynamic-process
 * calls (spawn, connect, accept) are not in Ferry: {@link #getParent()} answers null, as for any
 * process that was not spawned.
 *
 * <pre>{@code
 * Intracomm half = MPI.COMM_WORLD.split(rank % 2, rank);
 * Intercomm inter = MPI.COMM_WORLD.createIntercomm(half, 0, rank % 2 == 0 ? 1 : 0, 99);
 * inter.send(data, n, MPI.INT, 0, 7);         // to rank 0 of the other half
 * Intracomm all = inter.merge(rank % 2 == 1); // evens first
 * }</pre>
 */
public final class Intercomm extends Comm {
    Intercomm(dev.ferry.Comm comm) {
        super(comm);
    }

    @Override
    Intercomm wrap(dev.ferry.Comm c) {
        if (c == null) {
            return null;
        }
        Intercomm w = new Intercomm(c);
        w.errhandler = errhandler;
        return w;
    }

    @Override
    public Intercomm clone() {
        return dup();
    }

    @Override
    public Intercomm dup() {
        return (Intercomm) super.dup();
    }

    @Override
    public Intercomm iDup() {
        return (Intercomm) super.iDup();
    }

    @Override
    public Intercomm dupWithInfo(Info info) {
        return (Intercomm) super.dupWithInfo(info);
    }

    /** The remote group's size. */
    public int getRemoteSize() {
        try {
            return ferry("getRemoteSize").remoteSize();
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** The remote group. */
    public Group getRemoteGroup() {
        try {
            return new Group(ferry("getRemoteGroup").remoteGroup());
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /**
     * An intracommunicator of both groups (collective over both): the group that passes
     * {@code high} false comes first; when both pass the same, the group whose leader has the lower
     * rank in the job.
     */
    public Intracomm merge(boolean high) {
        try {
            Intracomm c = new Intracomm(ferry("merge").merge(high));
            c.errhandler = errhandler;
            return c;
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** The parent of a spawned process: null, since Ferry spawns none. */
    public static Intercomm getParent() {
        return null;
    }

    public int Remote_size() {
        return getRemoteSize();
    }

    public Group Remote_group() {
        return getRemoteGroup();
    }

    public Intracomm Merge(boolean high) {
        return merge(high);
    }
}
