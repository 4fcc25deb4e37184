/*
 * An OSU-style point-to-point benchmark of an MPI library between two ranks, measured the way
 * `ferry bench latency` and `ferry bench bw` measure Ferry, for `ferry bench report`'s peers:
 *   latency: ping-pong of SIZE bytes, each round trip timed; the line's median_us and p99_us are
 *            one-way (half a round trip), after a tenth as many untimed round trips.
 *   bw:      WINDOW non-blocking sends of SIZE bytes and a zero-byte reply, each window timed;
 *            median_us is per message, mb_per_s the median window's rate (10^6 bytes a second).
 * Output: one JSON object per line, as ferry bench --format json prints, "driver" being NAME.
 * Build: mpicc -O2 -o osu-p2p osu-p2p.c      Run: mpiexec -n 2 ./osu-p2p NAME SIZES ITERATIONS WINDOW
 * (SIZES comma-separated bytes).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int byValue(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double at(double *v, int n, double q) {
    qsort(v, n, sizeof(double), byValue);
    int rank = (int) (q * n + 0.999999);
    if (rank < 1) rank = 1;
    if (rank > n) rank = n;
    return v[rank - 1];
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 5 || size != 2) {
        if (me == 0) fprintf(stderr, "usage: mpiexec -n 2 osu-p2p NAME SIZES ITERATIONS WINDOW\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *name = argv[1];
    int iterations = atoi(argv[3]), window = atoi(argv[4]);
    char *sizes = strdup(argv[2]);
    long max = 0;
    for (char *s = strtok(strdup(argv[2]), ","); s; s = strtok(NULL, ",")) if (atol(s) > max) max = atol(s);
    char *buf = aligned_alloc(4096, (max + 4095) / 4096 * 4096 + 4096);
    char *in = aligned_alloc(4096, (max + 4095) / 4096 * 4096 + 4096);
    memset(buf, 1, max);
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * window);
    MPI_Status *statuses = malloc(sizeof(MPI_Status) * window);
    double *samples = malloc(sizeof(double) * (iterations + 1));
    for (char *s = strtok(sizes, ","); s; s = strtok(NULL, ",")) {
        int n = atoi(s);
        long iters = iterations;
        if ((long) n * iters > (1L << 31)) iters = (1L << 31) / (n > 0 ? n : 1);
        if (iters < 10) iters = 10;
        /* latency */
        for (long i = -iters / 10; i < iters; i++) {
            double t0 = MPI_Wtime();
            if (me == 0) {
                MPI_Send(buf, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(in, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(in, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
            if (i >= 0) samples[i] = (MPI_Wtime() - t0) / 2 * 1e6;
        }
        if (me == 0) {
            double p99 = at(samples, (int) iters, 0.99), median = at(samples, (int) iters, 0.5);
            printf("{\"benchmark\":\"latency\",\"driver\":\"%s\",\"size\":%d,\"iterations\":%ld,\"median_us\":%.4g,\"p99_us\":%.4g,"
                   "\"p50_us\":%.4g,\"p90_us\":%.4g,\"p999_us\":%.4g,\"buffers\":\"malloc\"}\n",
                   name, n, iters, median, p99, median, at(samples, (int) iters, 0.9), at(samples, (int) iters, 0.999));
            fflush(stdout);
        }
        /* bandwidth */
        long windows = iters / window < 10 ? 10 : iters / window;
        for (long w = -windows / 10; w < windows; w++) {
            double t0 = MPI_Wtime();
            if (me == 0) {
                for (int k = 0; k < window; k++) MPI_Isend(buf, n, MPI_BYTE, 1, 2, MPI_COMM_WORLD, &reqs[k]);
                MPI_Waitall(window, reqs, statuses);
                MPI_Recv(in, 0, MPI_BYTE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                for (int k = 0; k < window; k++) MPI_Irecv(in, n, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &reqs[k]);
                MPI_Waitall(window, reqs, statuses);
                MPI_Send(buf, 0, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
            }
            if (w >= 0 && w <= iterations) samples[w] = (MPI_Wtime() - t0) * 1e6 / window;
        }
        if (me == 0) {
            int k = windows > iterations ? iterations : (int) windows;
            double p99 = at(samples, k, 0.99), median = at(samples, k, 0.5);
            printf("{\"benchmark\":\"bw\",\"driver\":\"%s\",\"size\":%d,\"iterations\":%ld,\"median_us\":%.4g,\"p99_us\":%.4g,"
                   "\"mb_per_s\":%.5g,\"buffers\":\"malloc\"}\n", name, n, windows * window, median, p99, median > 0 ? n / median : 0.0);
            fflush(stdout);
        }
    }
    MPI_Finalize();
    return 0;
}
