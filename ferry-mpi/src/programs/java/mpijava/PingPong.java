package mpijava;

import mpi.*;

/** Pairs of ranks (0-1, 2-3, ...) bounce a message back and forth (mpiJava 1.2). */
public class PingPong {
    public static void main(String[] args) throws Exception {
        args = MPI.Init(args); // MPJ Express passes arguments of its own and strips them here
        int rank = MPI.COMM_WORLD.Rank(), size = MPI.COMM_WORLD.Size();
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        int peer = rank ^ 1;
        if (peer < size) {
            int[] buf = new int[n + 2];
            for (int r = 0; r < rounds; r++) {
                if (rank % 2 == 0) {
                    buf[1] = r;
                    MPI.COMM_WORLD.Send(buf, 1, n, MPI.INT, peer, 5);
                    Status s = MPI.COMM_WORLD.Recv(buf, 1, n, MPI.INT, peer, 5);
                    if (buf[1] != r + 1 || s.source != peer || s.tag != 5 || s.Get_count(MPI.INT) != n) {
                        throw new IllegalStateException("round " + r + ": wrong reply");
                    }
                } else {
                    MPI.COMM_WORLD.Recv(buf, 1, n, MPI.INT, peer, 5);
                    buf[1]++;
                    MPI.COMM_WORLD.Send(buf, 1, n, MPI.INT, peer, 5);
                }
            }
            if (rank % 2 == 0) {
                System.out.println("ok pingpong " + rank + "-" + peer + ": " + rounds + " rounds of " + n + " ints");
            }
        }
        MPI.Finalize();
    }
}
