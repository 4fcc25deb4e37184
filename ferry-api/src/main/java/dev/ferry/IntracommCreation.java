package dev.ferry;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Makes intracommunicators from one (dup, split, create): the members agree on the lowest context
 * id free at all of them (an allgather of each one's free mask, under the instance's creation
 * lock, so that concurrent creations of one rank do not interleave), and each builds the new
 * communicator from what every member said. {@link IntercommCreation} makes intercommunicators
 * the same way.
 */
final class IntracommCreation {
    private IntracommCreation() {
    }

    /** MPI_Comm_dup of an intracommunicator. */
    static Comm dup(Comm c) {
        Ferry f = c.ferry();
        synchronized (f.creation) {
            int id = agree(c);
            f.contexts.take(id);
            return new Comm(f, id, c.members().clone());
        }
    }

    /** MPI_Comm_split: see {@link Comm#split}. */
    static Comm split(Comm c, int color, int key) {
        Ferry f = c.ferry();
        int[] members = c.members();
        synchronized (f.creation) {
            long[][] all = allgather(c, new long[] {color, key});
            int id = agree(c);
            if (color == Ferry.UNDEFINED) {
                return null;
            }
            int[] chosen = IntStream.range(0, members.length).filter(r -> all[r][0] == color).boxed()
                    .sorted(Comparator.<Integer>comparingLong(r -> all[r][1]).thenComparingInt(r -> r))
                    .mapToInt(r -> members[r]).toArray();
            f.contexts.take(id);
            return new Comm(f, id, chosen);
        }
    }

    /** MPI_Comm_create of {@code group} (checked to be within {@code c}). */
    static Comm create(Comm c, Group group) {
        Ferry f = c.ferry();
        synchronized (f.creation) {
            int id = agree(c);
            if (group.rank() == Ferry.UNDEFINED) {
                return null;
            }
            f.contexts.take(id);
            return new Comm(f, id, group.members.clone());
        }
    }

    /** Agrees with every member on the lowest context id free at all of them. */
    private static int agree(Comm c) {
        int id = ContextIds.lowestCommon(commonFreeMask(c));
        if (id < 0) {
            throw new FerryException(ErrorClass.NO_SPACE, "no communicator context is free at every member of " + c
                    + " (" + ContextIds.MAX + " per instance)");
        }
        return id;
    }

    /** The context ids free at every member of {@code c} (collective; under {@link Ferry#creation}). */
    static long[] commonFreeMask(Comm c) {
        long[][] masks = allgather(c, c.ferry().contexts.freeMask());
        long[] and = masks[0].clone();
        for (long[] m : masks) {
            for (int w = 0; w < and.length; w++) {
                and[w] &= m[w];
            }
        }
        return and;
    }

    /** Every member's {@code mine} (all of one length), by rank. */
    private static long[][] allgather(Comm c, long[] mine) {
        int n = c.size(), len = mine.length;
        long[] flat = new long[n * len];
        c.collectives().allgather(mine, 0, len, Datatype.LONG, flat, 0, len, Datatype.LONG).await();
        long[][] all = new long[n][];
        for (int r = 0; r < n; r++) {
            all[r] = Arrays.copyOfRange(flat, r * len, (r + 1) * len);
        }
        return all;
    }
}
