package dev.ferry.core.match;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The bins of one context: a key per call (collectives' tag sequence) must not pile up; live entries survive the sweeps. */
class ContextQueueTest {
    @Test
    void keysThatComeAndGoLeaveABoundedNumberOfBinsAndLiveOnesStayFindable() {
        ContextQueue<String> q = new ContextQueue<>();
        for (int live = 0; live < 10; live++) {
            q.binFor(1, -1 - live).add(new MatchEntry<>("live " + live).set(0, 1, -1 - live));
        }
        for (int tag = 0; tag < 100_000; tag++) {
            MatchEntry<String> e = new MatchEntry<>("call " + tag).set(0, 0, tag);
            EntryChain<String> b = q.binFor(0, tag);
            b.add(e);
            assertSame(b, q.bin(0, tag));
            b.remove(e);
            assertTrue(q.bins.size() <= 2 * ContextQueue.SWEEP_MIN + 10, "bins after " + tag + " calls: " + q.bins.size());
        }
        for (int live = 0; live < 10; live++) {
            EntryChain<String> b = q.bin(1, -1 - live);
            assertNotNull(b, "a bin with an entry was swept");
            assertEquals("live " + live, b.head.item());
        }
    }

    @Test
    void aSteadyExchangeOnTheSameKeysKeepsItsBins() {
        ContextQueue<String> q = new ContextQueue<>();
        EntryChain<String> first = q.binFor(3, 7);
        for (int i = 0; i < 1000; i++) {
            MatchEntry<String> e = new MatchEntry<>("m").set(0, 3, 7);
            EntryChain<String> b = q.binFor(3, 7);
            assertSame(first, b, "an empty bin of a steady key is reused, not made again");
            b.add(e);
            b.remove(e);
        }
    }

    @Test
    void whatALookupRemembersNeverOutlivesTheTable() {
        ContextQueue<String> q = new ContextQueue<>();
        assertNull(q.bin(5, 9), "no bin yet");
        EntryChain<String> made = q.binFor(5, 9);
        assertSame(made, q.bin(5, 9), "the miss remembered is forgotten once the bin is made");
        for (int tag = 0; q.bins.size() < ContextQueue.SWEEP_MIN; tag++) {
            q.binFor(0, tag);
        }
        assertSame(made, q.bin(5, 9)); // remembered now, and empty
        q.binFor(0, 1_000_000); // one bin too many: the empty ones, (5, 9) among them, are swept
        assertNull(q.bin(5, 9), "a swept bin is not answered from memory");
        EntryChain<String> again = q.binFor(5, 9);
        assertNotSame(made, again);
        MatchEntry<String> e = new MatchEntry<>("m").set(0, 5, 9);
        again.add(e);
        assertSame(e, q.bin(5, 9).head);
        assertSame(e, q.bins.get(MatchEntry.key(5, 9)).head, "the bin answered is the table's");
    }
}
