package dev.ferry.examples;

import dev.ferry.Comm;
import dev.ferry.Ferry;

/**
 * Every rank joins the job and says hello: {@code hello from rank R of N on node X}.
 *
 * <pre>
 *   bin/ferry run -n 4 --example hello
 * </pre>
 */
public final class Hello {
    private Hello() {
    }

    public static void main(String[] args) {
        try (Ferry ferry = Ferry.init()) {
            Comm world = ferry.world();
            System.out.println("hello from rank " + world.rank() + " of " + world.size() + " on node " + ferry.processorName());
        }
    }
}
