package openmpi;

import mpi.*;

import java.nio.IntBuffer;

/** A token goes around the ring, each rank adding its rank, with non-blocking receives into a direct buffer. */
public class Ring {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank(), size = world.getSize();
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        IntBuffer token = MPI.newIntBuffer(1);
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        for (int r = 0; r < rounds; r++) {
            if (rank == 0) {
                world.send(token, 1, MPI.INT, next, 0);
                Request q = world.iRecv(token, 1, MPI.INT, prev, 0);
                Status s = q.waitStatus();
                if (s.getSource() != prev) {
                    throw new IllegalStateException("the token came from " + s.getSource());
                }
            } else {
                world.iRecv(token, 1, MPI.INT, prev, 0).waitFor();
                token.put(0, token.get(0) + rank);
                world.send(token, 1, MPI.INT, next, 0);
            }
        }
        int expected = rounds * size * (size - 1) / 2;
        if (rank == 0) {
            System.out.println((token.get(0) == expected ? "ok" : "WRONG") + " ring: " + rounds + " rounds of " + size + " ranks, token "
                    + token.get(0) + " (expected " + expected + ")");
        }
        MPI.Finalize();
    }
}
