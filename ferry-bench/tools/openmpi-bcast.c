/*
 * Open MPI's MPI_Bcast beside a naive bcast from MPI_Send/MPI_Recv (the root sends to each rank in
 * turn), measured as `ferry bench bcast` measures: each operation timed alone, then an untimed
 * barrier; a tenth as many warm-up operations first; the figure is the slowest rank's median; the
 * two forms alternate, every other round in reverse order. The physical reference for Ferry's
 * collective goals on this machine (see docs/performance.md).
 *
 * Build (Debian's openmpi-bin has no mpi.h; the one of ferry-mpi/tools/build-openmpi-java.sh's
 * PREFIX, the same 4.1.4, serves):
 *   gcc -O2 -I$PREFIX/include -o openmpi-bcast openmpi-bcast.c /usr/lib/x86_64-linux-gnu/libmpi.so.40
 * Run: SIZE ITERATIONS ROUNDS, e.g.
 *   mpirun --allow-run-as-root --oversubscribe -n 4 --mca btl self,vader ./openmpi-bcast 1048576 1000 3
 * and with one of the tuned component's algorithms forced (1 linear ... 9 scatter-allgather ring):
 *   ... --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_bcast_algorithm 4 ./openmpi-bcast ...
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int byValue(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    if (argc != 4) {
        fprintf(stderr, "usage: openmpi-bcast SIZE ITERATIONS ROUNDS\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    size_t size = strtoul(argv[1], NULL, 10);
    int iterations = atoi(argv[2]), rounds = atoi(argv[3]);
    char *buf = malloc(size ? size : 1);
    double *t = malloc(sizeof(double) * iterations);
    memset(buf, rank, size);
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < 2; k++) {
            int naive = r % 2 ? 1 - k : k;
            for (int i = -iterations / 10; i < iterations; i++) {
                double start = MPI_Wtime();
                if (!naive) {
                    MPI_Bcast(buf, (int) size, MPI_BYTE, 0, MPI_COMM_WORLD);
                } else if (rank == 0) {
                    for (int p = 1; p < n; p++) {
                        MPI_Send(buf, (int) size, MPI_BYTE, p, 7, MPI_COMM_WORLD);
                    }
                } else {
                    MPI_Recv(buf, (int) size, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                }
                double end = MPI_Wtime();
                if (i >= 0) {
                    t[i] = (end - start) * 1e6;
                }
                MPI_Barrier(MPI_COMM_WORLD);
            }
            qsort(t, iterations, sizeof(double), byValue);
            double median = t[iterations / 2], slowest;
            MPI_Reduce(&median, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            if (rank == 0) {
                printf("{\"round\":%d,\"impl\":\"%s\",\"ranks\":%d,\"size\":%zu,\"iterations\":%d,\"median_us\":%.4f}\n",
                       r + 1, naive ? "naive" : "openmpi", n, size, iterations, slowest);
            }
        }
    }
    free(t);
    free(buf);
    MPI_Finalize();
    return 0;
}
