package mpi;

/**
 * An MPI object whose resources the program gives back with {@link #free()}.
 *
 * <pre>{@code
 * Comm half = MPI.COMM_WORLD.split(MPI.COMM_WORLD.getRank() % 2, 0);
 * // ... work on half ...
 * half.free();
 * }</pre>
 */
public interface Freeable {
    void free();
}
