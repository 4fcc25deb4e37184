package dev.ferry;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The plan of one collective at one rank, as rounds: a round runs its local steps (copies,
 * reductions) in order, then starts its sends and receives at once; the next round starts when all
 * of them completed. Algorithms build the whole plan up front; {@link CollOp} runs it, so a
 * blocking collective and its non-blocking form are the same plan.
 *
 * <pre>{@code
 * Schedule s = new Schedule(pool);
 * s.send(right, mine).recv(left, theirs).next();
 * s.local(() -> op.apply(theirs, mine, count, type));
 * }</pre>
 */
final class Schedule {
    /** One round: local steps, then transfers. */
    static final class Round {
        final List<Runnable> locals = new ArrayList<>(2);
        int transfers;
        int[] peers = new int[2];
        MemorySegment[] memory = new MemorySegment[2];
        boolean[] sends = new boolean[2];

        void add(boolean send, int peer, MemorySegment m) {
            if (transfers == peers.length) {
                peers = java.util.Arrays.copyOf(peers, transfers * 2);
                memory = java.util.Arrays.copyOf(memory, transfers * 2);
                sends = java.util.Arrays.copyOf(sends, transfers * 2);
            }
            peers[transfers] = peer;
            memory[transfers] = m;
            sends[transfers] = send;
            transfers++;
        }

        boolean empty() {
            return transfers == 0 && locals.isEmpty();
        }
    }

    private final List<Round> rounds = new ArrayList<>();
    private Round current = new Round();
    private final TempPool pool;
    /** The temporary blocks taken, given back when the collective completed. */
    private final List<MemorySegment> temps = new ArrayList<>(2);

    Schedule(TempPool pool) {
        this.pool = pool;
    }

    /** Temporary memory of {@code bytes} for this collective. */
    MemorySegment temp(long bytes) {
        MemorySegment m = pool.take(bytes);
        temps.add(m);
        return m.asSlice(0, bytes);
    }

    /** Gives the temporary memory back (once nothing can touch it any more: the collective completed). */
    void release() {
        for (MemorySegment m : temps) {
            pool.give(m);
        }
        temps.clear();
    }

    /** The ranks the algorithm being added runs over (its rank i is communicator rank {@code view[i]}), or null: all. */
    private int[] view;

    /**
     * Runs what is added next over a subset of the communicator: an algorithm given
     * {@code ranks.length} ranks and rank i talks to communicator rank {@code ranks[i]}; null goes
     * back to the whole communicator.
     */
    Schedule over(int[] ranks) {
        view = ranks;
        return this;
    }

    /** Sends {@code m} to rank {@code peer} (of the communicator, or of the current {@link #over} view) in this round. */
    Schedule send(int peer, MemorySegment m) {
        current.add(true, view == null ? peer : view[peer], m);
        return this;
    }

    /** Receives into {@code m} from rank {@code peer} in this round. */
    Schedule recv(int peer, MemorySegment m) {
        current.add(false, view == null ? peer : view[peer], m);
        return this;
    }

    /** A local step; it runs when the round starts, before its transfers. */
    Schedule local(Runnable step) {
        if (current.transfers > 0) {
            next(); // a step after transfers belongs to the round after them
        }
        current.locals.add(step);
        return this;
    }

    /** Closes the round: what comes next waits for its transfers. */
    Schedule next() {
        if (!current.empty()) {
            rounds.add(current);
            current = new Round();
        }
        return this;
    }

    List<Round> rounds() {
        next();
        return rounds;
    }
}
