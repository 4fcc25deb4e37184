package openmpi;

import mpi.*;

/** C = A x B: the root scatters A's rows, broadcasts B, gathers C's rows, and checks C against a serial product. */
public class MatMul {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
        int n = 8 * size, rows = n / size;
        double[] a = null, c = null;
        double[] b = new double[n * n];
        if (rank == 0) {
            a = new double[n * n];
            c = new double[n * n];
            for (int i = 0; i < n * n; i++) {
                a[i] = (i * 7) % 11 - 5;
                b[i] = (i * 3) % 7 - 3;
            }
        }
        double[] myA = new double[rows * n], myC = new double[rows * n];
        MPI.COMM_WORLD.scatter(a, rows * n, MPI.DOUBLE, myA, rows * n, MPI.DOUBLE, 0);
        MPI.COMM_WORLD.bcast(b, n * n, MPI.DOUBLE, 0);
        for (int i = 0; i < rows; i++) {
            for (int k = 0; k < n; k++) {
                double x = myA[i * n + k];
                for (int j = 0; j < n; j++) {
                    myC[i * n + j] += x * b[k * n + j];
                }
            }
        }
        MPI.COMM_WORLD.gather(myC, rows * n, MPI.DOUBLE, c, rows * n, MPI.DOUBLE, 0);
        if (rank == 0) {
            int wrong = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    for (int k = 0; k < n; k++) {
                        s += a[i * n + k] * b[k * n + j];
                    }
                    if (s != c[i * n + j]) {
                        wrong++;
                    }
                }
            }
            System.out.println((wrong == 0 ? "ok" : "WRONG") + " matmul: " + n + " x " + n + " on " + size + " ranks, " + wrong + " wrong elements");
        }
        MPI.Finalize();
    }
}
