package dev.ferry.core.match;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hash-binned queues against MPI's matching rule stated as simply as possible: two lists in
 * order, scanned from the front. Random wildcards, sources, tags, contexts, cancels and orders.
 */
class MatchingModelTest {
    record Pattern(int id, int context, int source, int tag) {
        boolean accepts(Pattern msg) {
            return context == msg.context && (source == MatchEntry.ANY || source == msg.source) && (tag == MatchEntry.ANY || tag == msg.tag);
        }
    }

    @Test
    void randomOperationsMatchAsTheReferenceModelDoes() {
        for (long seed = 1; seed <= 40; seed++) {
            run(new Random(seed), seed);
        }
    }

    private static void run(Random rnd, long seed) {
        PostedReceives<Pattern> posted = new PostedReceives<>();
        UnexpectedMessages<Pattern> unexpected = new UnexpectedMessages<>();
        List<MatchEntry<Pattern>> modelPosted = new ArrayList<>();
        List<MatchEntry<Pattern>> modelUnexpected = new ArrayList<>();
        int sources = 1 + rnd.nextInt(6), tags = 1 + rnd.nextInt(5), contexts = 1 + rnd.nextInt(3);
        int ids = 0;
        for (int step = 0; step < 5000; step++) {
            int op = rnd.nextInt(10);
            int ctx = rnd.nextInt(contexts);
            if (op < 4) { // a receive is posted: the earliest unexpected message it accepts, else queued
                int src = rnd.nextInt(4) == 0 ? MatchEntry.ANY : rnd.nextInt(sources);
                int tag = rnd.nextInt(4) == 0 ? MatchEntry.ANY : rnd.nextInt(tags);
                Pattern p = new Pattern(ids++, ctx, src, tag);
                MatchEntry<Pattern> expected = null;
                for (MatchEntry<Pattern> m : modelUnexpected) {
                    if (p.accepts(m.item())) {
                        expected = m;
                        break;
                    }
                }
                boolean probeOnly = rnd.nextInt(5) == 0;
                MatchEntry<Pattern> got = probeOnly ? unexpected.find(ctx, src, tag) : unexpected.take(ctx, src, tag);
                assertSame(expected, got, () -> "seed " + seed + ", step: post " + p);
                if (got == null) {
                    if (!probeOnly) {
                        MatchEntry<Pattern> e = new MatchEntry<>(p).set(ctx, src, tag);
                        posted.add(e);
                        modelPosted.add(e);
                    }
                } else if (!probeOnly) {
                    modelUnexpected.remove(got);
                }
            } else if (op < 9) { // a message arrives: the earliest posted receive that accepts it, else unexpected
                Pattern m = new Pattern(ids++, ctx, rnd.nextInt(sources), rnd.nextInt(tags));
                MatchEntry<Pattern> expected = null;
                for (MatchEntry<Pattern> r : modelPosted) {
                    if (r.item().accepts(m)) {
                        expected = r;
                        break;
                    }
                }
                MatchEntry<Pattern> got = posted.match(ctx, m.source(), m.tag());
                assertSame(expected, got, () -> "seed " + seed + ", step: arrival " + m);
                if (got == null) {
                    MatchEntry<Pattern> e = new MatchEntry<>(m).set(ctx, m.source(), m.tag());
                    unexpected.add(e);
                    modelUnexpected.add(e);
                } else {
                    modelPosted.remove(got);
                    assertTrue(!got.queued());
                }
            } else if (!modelPosted.isEmpty()) { // a posted receive is cancelled
                MatchEntry<Pattern> c = modelPosted.remove(rnd.nextInt(modelPosted.size()));
                assertTrue(posted.remove(c));
                assertTrue(!posted.remove(c), "a second cancel finds nothing");
            }
            assertEquals(modelPosted.size(), posted.size());
            assertEquals(modelUnexpected.size(), unexpected.size());
        }
    }

    @Test
    void aPeersDeathTakesItsReceivesAndTheWildcardOnes() {
        PostedReceives<String> posted = new PostedReceives<>();
        MatchEntry<String> from1 = new MatchEntry<>("from 1").set(0, 1, 5);
        MatchEntry<String> from2 = new MatchEntry<>("from 2").set(0, 2, 5);
        MatchEntry<String> any = new MatchEntry<>("any").set(3, MatchEntry.ANY, MatchEntry.ANY);
        MatchEntry<String> anyElsewhere = new MatchEntry<>("any, in a context without rank 1").set(4, MatchEntry.ANY, 5);
        MatchEntry<String> from1AnyTag = new MatchEntry<>("from 1, any tag").set(0, 1, MatchEntry.ANY);
        posted.add(from1);
        posted.add(from2);
        posted.add(any);
        posted.add(from1AnyTag);
        posted.add(anyElsewhere);
        List<String> removed = new ArrayList<>();
        posted.removeFor(1, context -> context != 4, e -> removed.add(e.item()));
        assertEquals(3, removed.size());
        assertTrue(removed.containsAll(List.of("from 1", "any", "from 1, any tag")));
        assertEquals(2, posted.size());
        assertSame(anyElsewhere, posted.match(4, 1, 5));
        assertSame(from2, posted.match(0, 2, 5));
        assertNull(posted.match(0, 1, 5));
    }
}
