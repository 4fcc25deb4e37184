package openmpi;

import mpi.*;

/**
 * Two coupled models, each half of the job (Open MPI bindings' createIntercomm on the peer
 * communicator): they swap boundary values by point-to-point to the other half's ranks, and by
 * allGather and allToAll across the intercommunicator; the left half scatters a field to the
 * right one and gathers it back; merge(high) puts the right half first.
 */
public class CoupledHalves {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank(), size = world.getSize();
        boolean left = rank < size / 2;
        Intracomm half = world.split(left ? 0 : 1, rank);
        Intercomm inter = world.createIntercomm(half, 0, left ? size / 2 : 0, 5);
        int me = inter.getRank(), q = inter.getRemoteSize();
        boolean ok = inter.isInter() && inter.getSize() == half.getSize();

        // every rank sends its edge value to each rank of the other half and adds up what comes
        Request[] sends = new Request[q];
        for (int j = 0; j < q; j++) {
            sends[j] = inter.iSend(MPI.newDoubleBuffer(1).put(0, rank + 0.5), 1, MPI.DOUBLE, j, 3);
        }
        double sum = 0;
        for (int k = 0; k < q; k++) {
            double[] got = new double[1];
            Status s = inter.recv(got, 1, MPI.DOUBLE, MPI.ANY_SOURCE, 3);
            ok &= s.getSource() >= 0 && s.getSource() < q && got[0] == (left ? size / 2 : 0) + s.getSource() + 0.5;
            sum += got[0];
        }
        Request.waitAll(sends);
        double expectSum = q * 0.5;
        for (int j = 0; j < q; j++) {
            expectSum += left ? size / 2 + j : j;
        }
        ok &= sum == expectSum;

        // every rank gets the other half's ranks in order
        int[] theirs = new int[q];
        inter.allGather(new int[] {rank}, 1, MPI.INT, theirs, 1, MPI.INT);
        for (int j = 0; j < q; j++) {
            ok &= theirs[j] == (left ? size / 2 + j : j);
        }
        int[] out = new int[q], in = new int[q];
        for (int j = 0; j < q; j++) {
            out[j] = rank * 1000 + j;
        }
        inter.allToAll(out, 1, MPI.INT, in, 1, MPI.INT);
        for (int j = 0; j < q; j++) {
            ok &= in[j] == theirs[j] * 1000 + me;
        }

        // the left half's rank 0 scatters one value to each right rank and gathers them back doubled
        int root = left ? (me == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0;
        int[] field = new int[left ? q : 1];
        if (left && me == 0) {
            for (int j = 0; j < q; j++) {
                field[j] = 10 + j;
            }
        }
        int[] piece = new int[1];
        inter.scatter(field, 1, MPI.INT, piece, 1, MPI.INT, root);
        ok &= left || piece[0] == 10 + me;
        piece[0] *= 2;
        int[] back = new int[left ? q : 1];
        inter.gather(piece, 1, MPI.INT, back, 1, MPI.INT, root);
        if (left && me == 0) {
            for (int j = 0; j < q; j++) {
                ok &= back[j] == 2 * (10 + j);
            }
        }

        Intracomm rightFirst = inter.merge(left);
        ok &= rightFirst.getRank() == (left ? rank + (size - size / 2) : rank - size / 2);
        int[] flag = {ok ? 1 : 0}, all = new int[1];
        rightFirst.allReduce(flag, all, 1, MPI.INT, MPI.MIN);
        if (rank == 0) {
            System.out.println((all[0] == 1 ? "ok" : "WRONG") + " coupled halves of " + size + " ranks");
        }
        MPI.Finalize();
    }
}
