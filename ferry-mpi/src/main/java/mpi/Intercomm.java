package mpi;

/**
 * An intercommunicator. Ferry has none: {@link Comm#createIntercomm} and the dynamic-process
 * calls raise ERR_UNSUPPORTED_OPERATION, and {@link #getParent()} answers null (MPI_COMM_NULL, as
 * for any process that was not spawned). The class is here so that programs that name it compile.
 */
public final class Intercomm extends Comm {
    private Intercomm() {
        super(null);
    }

    private MPIException none(String what) {
        return fail(new MPIException(MPI.ERR_COMM, what + ": Ferry has no intercommunicators"));
    }

    @Override
    public Intercomm clone() {
        return dup();
    }

    @Override
    public Intercomm dup() {
        throw none("dup");
    }

    @Override
    public Intercomm iDup() {
        throw none("iDup");
    }

    @Override
    public Intercomm dupWithInfo(Info info) {
        throw none("dupWithInfo");
    }

    public int getRemoteSize() {
        throw none("getRemoteSize");
    }

    public Group getRemoteGroup() {
        throw none("getRemoteGroup");
    }

    public Intracomm merge(boolean high) {
        throw none("merge");
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
