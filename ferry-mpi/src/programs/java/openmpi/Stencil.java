package openmpi;

import mpi.*;

/**
 * Jacobi iterations of a 2-D heat grid on a Cartesian communicator: each rank owns a block with a
 * halo, exchanges rows as contiguous data and columns as a strided vector datatype with its four
 * neighbours (shift), and the result is checked against the same iterations done serially.
 */
public class Stencil {
    static final int N = 24, STEPS = 20;

    static double initial(int i, int j) {
        return (i * 31 + j * 17) % 13;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int size = MPI.COMM_WORLD.getSize();
        int[] dims = {0, 0};
        CartComm.createDims(size, dims);
        CartComm grid = MPI.COMM_WORLD.createCart(dims, new boolean[] {false, false}, false);
        int[] me = grid.getCoords(grid.getRank());
        int rows = N / dims[0], cols = N / dims[1];
        if (N % dims[0] != 0 || N % dims[1] != 0) {
            throw new IllegalArgumentException(N + " does not split over a grid of " + dims[0] + " x " + dims[1]);
        }
        int w = cols + 2;
        double[] a = new double[(rows + 2) * w], b = new double[(rows + 2) * w];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                a[(i + 1) * w + j + 1] = initial(me[0] * rows + i, me[1] * cols + j);
            }
        }
        Datatype column = Datatype.createVector(rows, 1, w, MPI.DOUBLE);
        column.commit();
        ShiftParms ud = grid.shift(0, 1), lr = grid.shift(1, 1);
        for (int step = 0; step < STEPS; step++) {
            // rows: up and down; columns: left and right (PROC_NULL at the edges: nothing moves)
            grid.sendRecv(MPI.slice(a, w + 1), cols, MPI.DOUBLE, ud.getRankSource(), 0,
                    MPI.slice(a, (rows + 1) * w + 1), cols, MPI.DOUBLE, ud.getRankDest(), 0);
            grid.sendRecv(MPI.slice(a, rows * w + 1), cols, MPI.DOUBLE, ud.getRankDest(), 1,
                    MPI.slice(a, 1), cols, MPI.DOUBLE, ud.getRankSource(), 1);
            grid.sendRecv(MPI.slice(a, w + 1), 1, column, lr.getRankSource(), 2,
                    MPI.slice(a, w + cols + 1), 1, column, lr.getRankDest(), 2);
            grid.sendRecv(MPI.slice(a, w + cols), 1, column, lr.getRankDest(), 3,
                    MPI.slice(a, w), 1, column, lr.getRankSource(), 3);
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
        double[] sum = {0};
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= cols; j++) {
                sum[0] += a[i * w + j] * (1 + (me[0] * rows + i - 1) * N + me[1] * cols + j - 1);
            }
        }
        grid.allReduce(sum, 1, MPI.DOUBLE, MPI.SUM);
        if (grid.getRank() == 0) {
            double expected = serial();
            boolean ok = Math.abs(sum[0] - expected) < 1e-6 * Math.abs(expected);
            System.out.printf("%s stencil: %d x %d grid on %d x %d ranks, %d steps, checksum %.6f (serial %.6f)%n",
                    ok ? "ok" : "WRONG", N, N, dims[0], dims[1], STEPS, sum[0], expected);
        }
        column.free();
        grid.free();
        MPI.Finalize();
    }

    static double serial() {
        double[][] a = new double[N][N], b = new double[N][N];
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) {
                a[i][j] = initial(i, j);
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
