package mpijava;

import mpi.*;

/**
 * Jacobi iterations of a 2-D grid on a Cartcomm (mpiJava 1.2): rows by offset into the array,
 * columns as a Vector datatype, neighbours from Shift, halos by Sendrecv; checked against the
 * serial result.
 */
public class Stencil {
    static final int N = 24, STEPS = 20;

    public static void main(String[] args) throws Exception {
        args = MPI.Init(args); // MPJ Express passes arguments of its own and strips them here
        int size = MPI.COMM_WORLD.Size();
        int[] dims = {0, 0};
        Cartcomm.Dims_create(size, dims);
        Cartcomm grid = MPI.COMM_WORLD.Create_cart(dims, new boolean[] {false, false}, false);
        int[] me = grid.Coords(grid.Rank());
        int rows = N / dims[0], cols = N / dims[1], w = cols + 2;
        double[] a = new double[(rows + 2) * w], b = new double[(rows + 2) * w];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                a[(i + 1) * w + j + 1] = openmpiInitial(me[0] * rows + i, me[1] * cols + j);
            }
        }
        Datatype column = Datatype.Vector(rows, 1, w, MPI.DOUBLE);
        column.Commit();
        ShiftParms ud = grid.Shift(0, 1), lr = grid.Shift(1, 1);
        for (int step = 0; step < STEPS; step++) {
            grid.Sendrecv(a, w + 1, cols, MPI.DOUBLE, ud.rank_source, 0, a, (rows + 1) * w + 1, cols, MPI.DOUBLE, ud.rank_dest, 0);
            grid.Sendrecv(a, rows * w + 1, cols, MPI.DOUBLE, ud.rank_dest, 1, a, 1, cols, MPI.DOUBLE, ud.rank_source, 1);
            grid.Sendrecv(a, w + 1, 1, column, lr.rank_source, 2, a, w + cols + 1, 1, column, lr.rank_dest, 2);
            grid.Sendrecv(a, w + cols, 1, column, lr.rank_dest, 3, a, w, 1, column, lr.rank_source, 3);
            for (int i = 1; i <= rows; i++) {
                for (int j = 1; j <= cols; j++) {
                    int gi = me[0] * rows + i - 1, gj = me[1] * cols + j - 1;
                    boolean edge = gi == 0 || gj == 0 || gi == N - 1 || gj == N - 1;
                    b[i * w + j] = edge ? a[i * w + j] : 0.25 * (a[(i - 1) * w + j] + a[(i + 1) * w + j] + a[i * w + j - 1] + a[i * w + j + 1]);
                }
            }
            double[] t = a;
            a = b;
            b = t;
        }
        double[] sum = {0}, total = {0};
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= cols; j++) {
                sum[0] += a[i * w + j] * (1 + (me[0] * rows + i - 1) * N + me[1] * cols + j - 1);
            }
        }
        grid.Reduce(sum, 0, total, 0, 1, MPI.DOUBLE, MPI.SUM, 0);
        if (grid.Rank() == 0) {
            double expected = serial();
            boolean ok = Math.abs(total[0] - expected) < 1e-6 * Math.abs(expected);
            System.out.printf("%s stencil: %d x %d grid on %d x %d ranks, checksum %.6f (serial %.6f)%n",
                    ok ? "ok" : "WRONG", N, N, dims[0], dims[1], total[0], expected);
        }
        grid.Free();
        MPI.Finalize();
    }

    static double openmpiInitial(int i, int j) {
        return (i * 31 + j * 17) % 13;
    }

    static double serial() {
        double[][] a = new double[N][N], b = new double[N][N];
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) {
                a[i][j] = openmpiInitial(i, j);
            }
        }
        for (int step = 0; step < STEPS; step++) {
            for (int i = 0; i < N; i++) {
                for (int j = 0; j < N; j++) {
                    boolean edge = i == 0 || j == 0 || i == N - 1 || j == N - 1;
                    b[i][j] = edge ? a[i][j] : 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
                }
            }
            double[][] t = a;
            a = b;
            b = t;
        }
        double s = 0;
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) {
                s += a[i][j] * (1 + i * N + j);
            }
        }
        return s;
    }
}
