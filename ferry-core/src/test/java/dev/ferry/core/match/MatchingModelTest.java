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
            // whether a receive (wildcards too) would be the first to accept any of its messages:
            // the model asks every message the two could both accept
            int askSource = rnd.nextInt(3) == 0 ? MatchEntry.ANY : rnd.nextInt(sources);
            int askTag = rnd.nextInt(3) == 0 ? MatchEntry.ANY : rnd.nextInt(tags), askContext = rnd.nextInt(contexts);
            Pattern ask = new Pattern(-1, askContext, askSource, askTag);
            boolean before = false;
            for (int s = 0; s < sources && !before; s++) {
                for (int t = 0; t < tags && !before; t++) {
                    Pattern msg = new Pattern(-1, askContext, s, t);
                    before = ask.accepts(msg) && modelPosted.stream().anyMatch(r -> r.item().accepts(msg));
                }
            }
            assertEquals(before, posted.overlaps(askContext, askSource, askTag),
                    "seed " + seed + ": overlaps(" + askContext + ", " + askSource + ", " + askTag + ")");
        }
    }

    /** A Portals-like pattern: source (or ANY), bits with ignore bits, a capacity (NO_TRUNCATE), kinds allowed, persistent or use-once. */
    record Entry(int id, int source, long bits, long ignore, int capacity, int kinds, boolean persistent) {
        boolean accepts(int src, long b) {
            return (source == MatchEntry.ANY || source == src) && ((b ^ bits) & ~ignore) == 0;
        }
    }

    /** A Portals-like message or unexpected header: source, bits, length, kind (1 put, 2 get). */
    record Arrival(int id, int source, long bits, int length, int kind) {
    }

    private static long randomBits(Random rnd) {
        long b = rnd.nextInt(6);
        return rnd.nextInt(3) == 0 ? b | (long) (1 + rnd.nextInt(3)) << 40 : b; // some beyond 32 bits: the other key form
    }

    private static long randomIgnore(Random rnd) {
        return switch (rnd.nextInt(6)) {
            case 0 -> -1L;
            case 1 -> 0x3L;
            case 2 -> 0x3L << 40 | 0x1;
            default -> 0;
        };
    }

    /**
     * The same queues with 64 match bits, ignore bits, entries passed over (too short, wrong
     * operation), persistent entries and searches that walk every match, against two plain lists.
     */
    @Test
    void matchBitsWithIgnoreBitsEligibilityAndPersistentEntriesMatchAsTheReferenceModelDoes() {
        for (long seed = 1; seed <= 40; seed++) {
            Random rnd = new Random(seed);
            PostedReceives<Entry> list = new PostedReceives<>();
            UnexpectedMessages<Arrival> headers = new UnexpectedMessages<>();
            List<MatchEntry<Entry>> modelList = new ArrayList<>();
            List<MatchEntry<Arrival>> modelHeaders = new ArrayList<>();
            int sources = 1 + rnd.nextInt(4);
            int ids = 0;
            for (int step = 0; step < 4000; step++) {
                int op = rnd.nextInt(10);
                if (op < 4) { // an entry is appended: first it walks the headers it accepts (a search), maybe taking them
                    int src = rnd.nextInt(4) == 0 ? MatchEntry.ANY : rnd.nextInt(sources);
                    Entry p = new Entry(ids++, src, randomBits(rnd), randomIgnore(rnd), rnd.nextInt(3) == 0 ? 64 : Integer.MAX_VALUE,
                            1 + rnd.nextInt(3), rnd.nextInt(3) == 0);
                    Eligibility<Arrival> kinds = a -> (p.kinds() & a.kind()) != 0;
                    List<MatchEntry<Arrival>> expected = new ArrayList<>();
                    for (MatchEntry<Arrival> h : modelHeaders) {
                        if (p.accepts(h.item().source(), h.item().bits()) && kinds.eligible(h.item())) {
                            expected.add(h);
                        }
                    }
                    List<MatchEntry<Arrival>> walked = new ArrayList<>();
                    for (MatchEntry<Arrival> h = headers.find(0, src, p.bits(), p.ignore(), kinds); h != null;
                         h = headers.findAfter(h, src, p.bits(), p.ignore(), kinds)) {
                        walked.add(h);
                    }
                    long fSeed = seed;
                    assertEquals(expected, walked, () -> "seed " + fSeed + ", search of " + p);
                    int take = rnd.nextInt(3); // 0: none, 1: the first, 2: all
                    for (int i = 0; i < (take == 0 ? 0 : take == 1 ? Math.min(1, walked.size()) : walked.size()); i++) {
                        headers.remove(walked.get(i));
                        modelHeaders.remove(walked.get(i));
                    }
                    MatchEntry<Entry> e = new MatchEntry<>(p).setBits(0, src, p.bits(), p.ignore());
                    list.add(e);
                    modelList.add(e);
                } else if (op < 9) { // a message arrives: the earliest eligible entry takes it (and stays if persistent), else a header
                    int length = rnd.nextInt(128);
                    Arrival a = new Arrival(ids++, rnd.nextInt(sources), randomBits(rnd), length, 1 + rnd.nextInt(2));
                    Eligibility<Entry> fits = p -> length <= p.capacity() && (p.kinds() & a.kind()) != 0;
                    MatchEntry<Entry> expected = null;
                    for (MatchEntry<Entry> r : modelList) {
                        if (r.item().accepts(a.source(), a.bits()) && fits.eligible(r.item())) {
                            expected = r;
                            break;
                        }
                    }
                    MatchEntry<Entry> got = list.find(0, a.source(), a.bits(), fits);
                    long fSeed = seed;
                    assertSame(expected, got, () -> "seed " + fSeed + ", arrival " + a);
                    if (got == null) {
                        MatchEntry<Arrival> h = new MatchEntry<>(a).setBits(0, a.source(), a.bits(), 0);
                        headers.add(h);
                        modelHeaders.add(h);
                    } else if (!got.item().persistent()) {
                        assertTrue(list.remove(got));
                        modelList.remove(got);
                    }
                } else if (!modelList.isEmpty()) { // an entry is unlinked
                    MatchEntry<Entry> c = modelList.remove(rnd.nextInt(modelList.size()));
                    assertTrue(list.remove(c));
                }
                assertEquals(modelList.size(), list.size());
                assertEquals(modelHeaders.size(), headers.size());
            }
        }
    }

    @Test
    void anMpiTagAndItsBitsAreOneKey() {
        PostedReceives<String> posted = new PostedReceives<>();
        MatchEntry<String> tag = new MatchEntry<>("tag 7").set(0, 1, 7);
        posted.add(tag);
        assertEquals(7, tag.tag());
        assertEquals(7L, tag.bits());
        assertSame(tag, posted.find(0, 1, 7L, null));
        assertNull(posted.find(0, 1, 7L | 1L << 32, null), "bits beyond the tag's 32 differ");
        MatchEntry<String> any = new MatchEntry<>("any tag").set(0, 1, MatchEntry.ANY);
        assertEquals(MatchEntry.ANY, any.tag());
        assertEquals(-1L, any.ignoreBits());
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
