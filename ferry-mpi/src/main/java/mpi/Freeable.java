package mpi;

/** An MPI object whose resources the program gives back with {@link #free()}. */
public interface Freeable {
    void free();
}
