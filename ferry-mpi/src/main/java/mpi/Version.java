package mpi;

/**
 * The version of the MPI standard Ferry's {@code mpi} package follows ({@link MPI#getVersion()}).
 *
 * <pre>{@code
 * Version v = MPI.getVersion();
 * System.out.println("MPI " + v.getVersion() + "." + v.getSubVersion());
 * }</pre>
 */
public final class Version {
    private final int version;
    private final int subVersion;

    Version(int version, int subVersion) {
        this.version = version;
        this.subVersion = subVersion;
    }

    public int getVersion() {
        return version;
    }

    public int getSubVersion() {
        return subVersion;
    }
}
