package mpijava;

import mpi.*;

/** C = A x B with Scatter, Bcast and Gather at offsets into the arrays (mpiJava 1.2), checked serially. */
public class MatMul {
    public static void main(String[] args) throws Exception {
        args = MPI.Init(args); // MPJ Express passes arguments of its own and strips them here
        int rank = MPI.COMM_WORLD.Rank(), size = MPI.COMM_WORLD.Size();
        int n = 6 * size, rows = n / size, pad = 3;
        long[] a = new long[pad + n * n], b = new long[n * n], c = new long[pad + n * n];
        if (rank == 0) {
            for (int i = 0; i < n * n; i++) {
                a[pad + i] = (i * 5) % 9 - 4;
                b[i] = (i * 2) % 5 - 2;
            }
        }
        long[] myA = new long[rows * n], myC = new long[rows * n];
        MPI.COMM_WORLD.Scatter(a, pad, rows * n, MPI.LONG, myA, 0, rows * n, MPI.LONG, 0);
        MPI.COMM_WORLD.Bcast(b, 0, n * n, MPI.LONG, 0);
        for (int i = 0; i < rows; i++) {
            for (int k = 0; k < n; k++) {
                for (int j = 0; j < n; j++) {
                    myC[i * n + j] += myA[i * n + k] * b[k * n + j];
                }
            }
        }
        MPI.COMM_WORLD.Gather(myC, 0, rows * n, MPI.LONG, c, pad, rows * n, MPI.LONG, 0);
        if (rank == 0) {
            int wrong = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    long s = 0;
                    for (int k = 0; k < n; k++) {
                        s += a[pad + i * n + k] * b[k * n + j];
                    }
                    wrong += s == c[pad + i * n + j] ? 0 : 1;
                }
            }
            System.out.println((wrong == 0 ? "ok" : "WRONG") + " matmul: " + n + " x " + n + " on " + size + " ranks, " + wrong + " wrong elements");
        }
        MPI.Finalize();
    }
}
