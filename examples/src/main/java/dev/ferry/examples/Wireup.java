package dev.ferry.examples;

import dev.ferry.Comm;
import dev.ferry.Ferry;

import java.util.stream.IntStream;

/**
 * Starting a job and nothing else, for measuring wire-up time ({@code ferry bench wireup}): every
 * rank initialises Ferry and closes it; rank 0 reports the job it saw, on how many nodes, and how
 * its launcher wired it up.
 *
 * <pre>
 *   bin/ferry run -n 16 --example wireup
 *   mpiexec.hydra -n 4 bin/ferry exec --example wireup
 * </pre>
 */
public final class Wireup {
    private Wireup() {
    }

    public static void main(String[] args) {
        try (Ferry ferry = Ferry.init()) {
            Comm world = ferry.world();
            if (world.rank() == 0) {
                long nodes = IntStream.range(0, world.size()).mapToObj(r -> world.route(r).node()).distinct().count();
                System.out.println("wired up " + world.size() + " ranks on " + nodes + " node(s) over " + ferry.launcher());
            }
        }
    }
}
