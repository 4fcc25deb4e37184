package dev.ferry.examples;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.Ferry;
import dev.ferry.Window;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * One-sided put and get with the application API's windows: every rank allocates a 64-byte
 * window; between two fences each puts a greeting into its right neighbour's window, and between
 * the next two gets back what its left neighbour wrote into its own right neighbour's window (a
 * get from a rank two away). Nobody receives anything: the targets take no part.
 *
 * <pre>
 *   bin/ferry run -n 4 --example put-get
 * </pre>
 */
public final class PutGet {
    private PutGet() {
    }

    public static void main(String[] args) {
        try (Ferry ferry = Ferry.init()) {
            Comm world = ferry.world();
            int rank = world.rank(), size = world.size();
            try (Window window = Window.allocate(world, 64, 1)) {
                byte[] hello = String.format("hello from rank %d", rank).getBytes(StandardCharsets.US_ASCII);
                window.fence();
                window.put(hello, 0, hello.length, Datatype.BYTE, (rank + 1) % size, 0);
                window.fence(); // every put is in

                int from = (rank + 2) % size;
                byte[] got = new byte[64];
                window.get(got, 0, got.length, Datatype.BYTE, from, 0);
                window.fence(); // the get is here
                MemorySegment mine = window.memory();
                System.out.printf("rank %d: my window holds \"%s\"; rank %d's holds \"%s\"%n", rank,
                        mine.getString(0, StandardCharsets.US_ASCII), from, MemorySegment.ofArray(got).getString(0, StandardCharsets.US_ASCII));
            }
        }
    }
}
