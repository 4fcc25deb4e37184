package mpi;

import java.util.function.Supplier;

/**
 * A persistent request: made once by {@code sendInit} / {@code recvInit} ({@code Send_init},
 * {@code Recv_init}), started again and again, waited for like any request.
 *
 * <pre>{@code
 * Prequest r = comm.recvInit(buf, n, MPI.DOUBLE, left, 0);
 * for (int step = 0; step < steps; step++) {
 *     r.start();
 *     r.waitFor();
 * }
 * }</pre>
 */
public final class Prequest extends Request {
    private final Supplier<Request> starter;

    Prequest(Supplier<Request> starter, Errhandler handler) {
        super(null, handler, null);
        this.starter = starter;
    }

    /** Starts the operation again (the previous one must be complete). */
    public void start() {
        Request r = starter.get();
        restartFrom(r);
    }

    public static void startAll(Prequest[] requests) {
        for (Prequest r : requests) {
            r.start();
        }
    }

    public void Start() {
        start();
    }

    public static void Startall(Prequest[] array_of_requests) {
        startAll(array_of_requests);
    }
}
