package mpijava;

import mpi.*;

import java.nio.ByteBuffer;

/**
 * Buffered sends (mpiJava 1.2 / MPJ Express): pairs of ranks Bsend 400 KB to each other and only
 * then receive (with standard sends both would wait for the other's receive); Ibsend and a
 * persistent Bsend_init reuse the attached buffer; objects are buffered too; a Bsend larger than
 * the buffer's free space is an MPIException of class ERR_BUFFER; Buffer_detach waits for what is
 * still in flight and hands the buffer back. An odd rank out works alone, sending to itself.
 */
public class BufferedSends {
    public static void main(String[] args) throws Exception {
        args = MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank(), size = MPI.COMM_WORLD.Size();
        int peer = (rank ^ 1) < size ? rank ^ 1 : rank;
        int n = 100_000;
        boolean ok = true;

        ByteBuffer buffer = ByteBuffer.allocateDirect(MPI.COMM_WORLD.Pack_size(n, MPI.INT) + MPI.BSEND_OVERHEAD);
        MPI.Buffer_attach(buffer);
        int[] out = new int[n], in = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = rank * n + i;
        }
        MPI.COMM_WORLD.Bsend(out, 0, n, MPI.INT, peer, 1);
        java.util.Arrays.fill(out, -1); // copied already: this changes nothing the peer gets
        MPI.COMM_WORLD.Recv(in, 0, n, MPI.INT, peer, 1);
        for (int i = 0; i < n; i++) {
            ok &= in[i] == peer * n + i;
        }
        MPI.Buffer_detach();

        // too large for what is left: the error is MPI's, and the program carries on
        MPI.Buffer_attach(new byte[100 + MPI.BSEND_OVERHEAD]);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        try {
            MPI.COMM_WORLD.Bsend(new int[26], 0, 26, MPI.INT, peer, 2);
            ok = false;
        } catch (MPIException e) {
            ok &= e.getErrorClass() == MPI.ERR_BUFFER;
        }
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_ARE_FATAL);
        MPI.Buffer_detach();

        // Ibsend and a persistent buffered send, three rounds, in a buffer for two messages
        MPI.Buffer_attach(ByteBuffer.allocate(2 * (MPI.COMM_WORLD.Pack_size(10, MPI.DOUBLE) + MPI.BSEND_OVERHEAD)));
        double[] values = new double[10], got = new double[10];
        Prequest persistent = MPI.COMM_WORLD.Bsend_init(values, 0, 10, MPI.DOUBLE, peer, 3);
        for (int round = 0; round < 3; round++) {
            java.util.Arrays.fill(values, rank + round / 10.0);
            persistent.Start();
            persistent.Wait();
            Request r = MPI.COMM_WORLD.Ibsend(values, 0, 10, MPI.DOUBLE, peer, 4);
            r.Wait();
            MPI.COMM_WORLD.Recv(got, 0, 10, MPI.DOUBLE, peer, 3);
            ok &= got[9] == peer + round / 10.0;
            MPI.COMM_WORLD.Recv(got, 0, 10, MPI.DOUBLE, peer, 4);
            ok &= got[0] == peer + round / 10.0;
        }
        persistent.Free();
        MPI.Buffer_detach();

        // objects: their serialized bytes go through the buffer
        MPI.Buffer_attach(new byte[64 * 1024]);
        Object[] objects = {"from " + rank, java.util.List.of(rank, 2 * rank)}, back = new Object[2];
        MPI.COMM_WORLD.Bsend(objects, 0, 2, MPI.OBJECT, peer, 5);
        MPI.COMM_WORLD.Recv(back, 0, 2, MPI.OBJECT, peer, 5);
        ok &= ("from " + peer).equals(back[0]) && java.util.List.of(peer, 2 * peer).equals(back[1]);
        MPI.Buffer_detach();

        boolean all = allTrue(ok);
        if (rank == 0) {
            System.out.println(all ? "ok buffered sends on " + size + " ranks" : "WRONG buffered sends");
        }
        MPI.Finalize();
    }

    private static boolean allTrue(boolean ok) {
        int[] mine = {ok ? 1 : 0}, min = new int[1];
        MPI.COMM_WORLD.Allreduce(mine, 0, min, 0, 1, MPI.INT, MPI.MIN);
        return min[0] == 1;
    }
}
