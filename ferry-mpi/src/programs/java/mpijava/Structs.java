package mpijava;

import mpi.*;

/**
 * mpiJava 1.2's derived types over arrays: a Struct whose MPI.LB and MPI.UB entries pad each int
 * to five (displacements count ints), a Struct with its data far apart, Hvector and Hindexed with
 * strides and displacements in ints, and an empty Struct; each sent between pairs of ranks and
 * checked element by element against the layout the mpiJava specification gives.
 */
public class Structs {
    public static void main(String[] args) throws Exception {
        args = MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank(), size = MPI.COMM_WORLD.Size();
        int peer = rank ^ 1;
        boolean ok = true;
        if (peer < size) {
            boolean sender = rank % 2 == 0;
            // every fifth int from index 2: an int between LB at 0 and UB at 5
            Datatype padded = Datatype.Struct(new int[] {1, 1, 1}, new int[] {0, 2, 5}, new Datatype[] {MPI.LB, MPI.INT, MPI.UB});
            padded.Commit();
            ok &= padded.Extent() == 5 && padded.Size() == 1 && padded.Lb() == 0 && padded.Ub() == 5;
            int[] big = new int[20];
            for (int i = 0; i < big.length; i++) {
                big[i] = 100 * rank + i;
            }
            if (sender) {
                MPI.COMM_WORLD.Send(big, 0, 3, padded, peer, 1);
                int[] back = new int[20];
                MPI.COMM_WORLD.Recv(back, 1, 3, padded, peer, 2); // from index 1: into 3, 8 and 13
                for (int i = 0; i < back.length; i++) {
                    int expect = i == 3 ? 100 * peer : i == 8 ? 100 * peer + 1 : i == 13 ? 100 * peer + 2 : 0;
                    ok &= back[i] == expect;
                }
            } else {
                int[] three = new int[3];
                Status s = MPI.COMM_WORLD.Recv(three, 0, 3, MPI.INT, peer, 1);
                ok &= s.Get_count(MPI.INT) == 3 && three[0] == 100 * peer + 2 && three[1] == 100 * peer + 7 && three[2] == 100 * peer + 12;
                MPI.COMM_WORLD.Send(new int[] {100 * rank, 100 * rank + 1, 100 * rank + 2}, 0, 3, MPI.INT, peer, 2);
            }

            // two ints 62 apart, twice: elements 63 ints apart (from the lowest to past the highest)
            Datatype far = Datatype.Struct(new int[] {1, 1}, new int[] {3, 65}, new Datatype[] {MPI.INT, MPI.INT});
            far.Commit();
            int[] wide = new int[200];
            for (int i = 0; i < wide.length; i++) {
                wide[i] = i;
            }
            if (sender) {
                MPI.COMM_WORLD.Send(wide, 0, 2, far, peer, 3);
            } else {
                int[] four = new int[4];
                MPI.COMM_WORLD.Recv(four, 0, 4, MPI.INT, peer, 3);
                ok &= four[0] == 3 && four[1] == 65 && four[2] == 66 && four[3] == 128;
            }

            // Hvector: 3 blocks of 2 doubles, 5 doubles apart; Hindexed: doubles at 1 and 6
            Datatype hv = Datatype.Hvector(3, 2, 5, MPI.DOUBLE);
            Datatype hi = Datatype.Hindexed(new int[] {1, 1}, new int[] {1, 6}, MPI.DOUBLE);
            double[] d = new double[16];
            for (int i = 0; i < d.length; i++) {
                d[i] = i + 0.5;
            }
            if (sender) {
                MPI.COMM_WORLD.Send(d, 0, 1, hv, peer, 4);
                MPI.COMM_WORLD.Send(d, 0, 1, hi, peer, 5);
            } else {
                double[] six = new double[6], two = new double[2];
                MPI.COMM_WORLD.Recv(six, 0, 6, MPI.DOUBLE, peer, 4);
                MPI.COMM_WORLD.Recv(two, 0, 2, MPI.DOUBLE, peer, 5);
                ok &= java.util.Arrays.equals(six, new double[] {0.5, 1.5, 5.5, 6.5, 10.5, 11.5}) && two[0] == 1.5 && two[1] == 6.5;
            }

            // an empty struct: 100 of them carry nothing, and the receive leaves the buffer alone
            Datatype empty = Datatype.Struct(new int[0], new int[0], new Datatype[0]);
            empty.Commit();
            int[] one = {sender ? 2 : 0};
            if (sender) {
                MPI.COMM_WORLD.Send(one, 0, 100, empty, peer, 6);
            } else {
                Status s = MPI.COMM_WORLD.Recv(one, 0, 100, empty, peer, 6);
                ok &= one[0] == 0 && s.Get_count(MPI.BYTE) == 0;
            }
        }
        int[] flag = {ok ? 1 : 0}, all = new int[1];
        MPI.COMM_WORLD.Allreduce(flag, 0, all, 0, 1, MPI.INT, MPI.MIN);
        if (rank == 0) {
            System.out.println(all[0] == 1 ? "ok mpiJava structs on " + size + " ranks" : "WRONG mpiJava structs");
        }
        MPI.Finalize();
    }
}
