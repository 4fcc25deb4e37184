package dev.ferry;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.*;

/** Communicators made by dup, split and create, and the group operations. */
class CommunicatorTest {
    static final Duration BOUND = Duration.ofSeconds(60);

    @Test
    void splitOrdersByKeyThenRankAndUndefinedGetsNone() {
        Ferry.runInProcess(6, BOUND, f -> {
            Comm w = f.world();
            int r = w.rank();
            // colors: ranks 0,2,4 -> 0; 1,3 -> 1; 5 -> none. Keys reverse the order.
            Comm c = w.split(r == 5 ? Ferry.UNDEFINED : r % 2, -r);
            if (r == 5) {
                assertNull(c);
                return;
            }
            int[] expected = r % 2 == 0 ? new int[] {4, 2, 0} : new int[] {3, 1};
            assertEquals(expected.length, c.size());
            assertEquals(IntStream.range(0, expected.length).filter(i -> expected[i] == r).findFirst().orElseThrow(), c.rank());
            // the new communicator carries messages among its members only
            int[] sum = {c.rank()};
            for (int step = 1; step < c.size(); step++) {
                int[] got = new int[1];
                c.sendrecv(new int[] {c.rank()}, 0, 1, Datatype.INT, (c.rank() + step) % c.size(), 0,
                        got, 0, 1, Datatype.INT, (c.rank() - step + c.size()) % c.size(), 0);
                sum[0] += got[0];
            }
            assertEquals(c.size() * (c.size() - 1) / 2, sum[0]);
            assertEquals(Comparison.UNEQUAL, c.compare(w));
            c.free();
            assertTrue(c.isFreed());
        });
    }

    @Test
    void createFromAGroupAndContextsAreReusedAfterFree() {
        Ferry.runInProcess(4, BOUND, f -> {
            Comm w = f.world();
            Group evens = w.group().incl(0, 2);
            Comm e = w.create(evens);
            if (w.rank() % 2 == 1) {
                assertNull(e);
            } else {
                assertEquals(2, e.size());
                assertEquals(w.rank() / 2, e.rank());
                int[] v = {w.rank()};
                e.sendrecvReplace(v, 0, 1, Datatype.INT, 1 - e.rank(), 3, 1 - e.rank(), 3);
                assertEquals(2 - w.rank(), v[0]);
                e.free();
            }
            for (int i = 0; i < ContextIds.MAX + 100; i++) { // more than the ids there are: each free gives its id back
                w.dup().close();
            }
        });
    }

    @Test
    void groupsCombineTranslateAndCompare() {
        Group g = new Group(new int[] {0, 1, 2, 3, 4, 5}, 2);
        assertEquals(2, g.rank());
        Group a = g.incl(5, 1, 3);
        Group b = g.excl(0, 1);
        assertArrayEquals(new int[] {5, 1, 3}, a.members);
        assertArrayEquals(new int[] {2, 3, 4, 5}, b.members);
        assertArrayEquals(new int[] {5, 1, 3, 2, 4}, a.union(b).members);
        assertArrayEquals(new int[] {5, 3}, a.intersection(b).members);
        assertArrayEquals(new int[] {1}, a.difference(b).members);
        assertArrayEquals(new int[] {3, Ferry.UNDEFINED, 1, Ferry.PROC_NULL}, a.translateRanks(new int[] {0, 1, 2, Ferry.PROC_NULL}, b));
        assertEquals(Ferry.UNDEFINED, a.rank());
        assertEquals(Comparison.IDENT, a.compare(g.incl(5, 1, 3)));
        assertEquals(Comparison.SIMILAR, a.compare(g.incl(1, 3, 5)));
        assertEquals(Comparison.UNEQUAL, a.compare(b));
        FerryException x = assertThrows(FerryException.class, () -> g.incl(1, 1));
        assertEquals(ErrorClass.GROUP, x.errorClass());
        x = assertThrows(FerryException.class, () -> g.excl(6));
        assertEquals(ErrorClass.RANK, x.errorClass());
        assertTrue(x.getMessage().contains("ranks[0]"), x.getMessage());
    }

    @Test
    void aGroupWithOutsidersCannotMakeACommunicator() {
        Ferry.runInProcess(2, BOUND, f -> {
            Comm self = f.self();
            FerryException x = assertThrows(FerryException.class, () -> self.create(f.world().group()));
            assertEquals(ErrorClass.GROUP, x.errorClass());
        });
    }

    /** In one JVM every rank is on one node: the shared split is everybody, ordered by key. */
    @Test
    void splitSharedGroupsTheRanksOfANode() {
        Ferry.runInProcess(3, BOUND, f -> {
            Comm w = f.world();
            Comm node = w.splitShared(-w.rank());
            assertEquals(3, node.size());
            assertEquals(2 - w.rank(), node.rank());
            node.free();
        });
    }
}
