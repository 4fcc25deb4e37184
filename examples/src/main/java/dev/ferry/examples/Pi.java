package dev.ferry.examples;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.Ferry;

/**
 * Pi as the integral of 4 / (1 + x^2) over [0, 1] by the midpoint rule: each rank sums every
 * size-th of N intervals (default 10 000 000), rank 0 adds the parts it receives in any order.
 *
 * <pre>
 *   bin/ferry run -n 4 --example pi 100000000
 * </pre>
 */
public final class Pi {
    private Pi() {
    }

    public static void main(String[] args) {
        long intervals = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        try (Ferry ferry = Ferry.init()) {
            Comm world = ferry.world();
            int rank = world.rank(), size = world.size();
            double h = 1.0 / intervals;
            double sum = 0;
            for (long i = rank; i < intervals; i += size) {
                double x = h * (i + 0.5);
                sum += 4.0 / (1.0 + x * x);
            }
            double[] part = {sum * h};
            if (rank != 0) {
                world.send(part, 0, 1, Datatype.DOUBLE, 0, 0);
                return;
            }
            double pi = part[0];
            double[] got = new double[1];
            for (int k = 1; k < size; k++) {
                world.recv(got, 0, 1, Datatype.DOUBLE, Ferry.ANY_SOURCE, 0);
                pi += got[0];
            }
            System.out.printf("pi is about %.12f (error %.2e) from %d intervals on %d ranks%n", pi, Math.abs(pi - Math.PI), intervals, size);
        }
    }
}
