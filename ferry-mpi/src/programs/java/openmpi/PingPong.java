package openmpi;

import mpi.*;

import java.nio.ByteBuffer;

/** Pairs of ranks (0-1, 2-3, ...) bounce a message back and forth, with arrays and with direct buffers. */
public class PingPong {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int bytes = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        int peer = rank ^ 1;
        if (peer < size) {
            byte[] array = new byte[bytes];
            ByteBuffer direct = MPI.newByteBuffer(bytes);
            for (int r = 0; r < rounds; r++) {
                if (rank % 2 == 0) {
                    array[r % bytes] = (byte) r;
                    MPI.COMM_WORLD.send(array, bytes, MPI.BYTE, peer, 1);
                    MPI.COMM_WORLD.recv(array, bytes, MPI.BYTE, peer, 1);
                    direct.put(0, (byte) r);
                    MPI.COMM_WORLD.send(direct, bytes, MPI.BYTE, peer, 2);
                    Status s = MPI.COMM_WORLD.recv(direct, bytes, MPI.BYTE, peer, 2);
                    if (s.getCount(MPI.BYTE) != bytes || direct.get(0) != (byte) (r + 1) || array[r % bytes] != (byte) (r + 1)) {
                        throw new IllegalStateException("round " + r + ": wrong reply");
                    }
                } else {
                    MPI.COMM_WORLD.recv(array, bytes, MPI.BYTE, peer, 1);
                    array[r % bytes]++;
                    MPI.COMM_WORLD.send(array, bytes, MPI.BYTE, peer, 1);
                    MPI.COMM_WORLD.recv(direct, bytes, MPI.BYTE, peer, 2);
                    direct.put(0, (byte) (direct.get(0) + 1));
                    MPI.COMM_WORLD.send(direct, bytes, MPI.BYTE, peer, 2);
                }
            }
            if (rank % 2 == 0) {
                System.out.println("ok pingpong " + rank + "-" + peer + ": " + rounds + " rounds of " + bytes + " bytes");
            }
        }
        MPI.Finalize();
    }
}
