package dev.ferry.portals;

import dev.ferry.launch.pmi.InProcessJob;
import dev.ferry.spi.Settings;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

import static dev.ferry.portals.Portals.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ctGetToward, a waiter's ctGet: a progress pass on each call while its total is not reached,
 * and on every 8th call once it is. Two ranks of one JVM, no passive-progress thread, so only
 * these calls make passes: rank 1 puts to rank 0 and says so through memory of this JVM; rank 0
 * takes the put in only through its calls' passes, and rank 1 its ack likewise.
 */
class CtGetTowardTest {
    @Test
    void aReachedTotalMakesAPassEveryEighthCallAndAShortOneOnEach() throws Exception {
        int rounds = 3;
        java.util.concurrent.Semaphore putSent = new java.util.concurrent.Semaphore(0), putTaken = new java.util.concurrent.Semaphore(0);
        InProcessJob.run(2, Duration.ofSeconds(60), boot -> {
            PortalsConfig c = new PortalsConfig().bootstrap(boot).settings(Settings.fromEnvironment().with("FERRY_PORTALS_PROGRESS", "caller"));
            try (PortalsLibrary p = PortalsLibrary.open(c)) {
                NiHandle ni = p.niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
                int pt = p.ptAlloc(ni, 0, EQ_NONE, PT_ANY);
                CtHandle arrived = p.ctAlloc(ni), acked = p.ctAlloc(ni), idle = p.ctAlloc(ni), warm = p.ctAlloc(ni);
                for (CtHandle counted : new CtHandle[] {arrived, warm}) {
                    Me me = new Me();
                    me.start = Arena.ofAuto().allocate(8);
                    me.length = 8;
                    me.options = ME_OP_PUT | ME_EVENT_CT_COMM; // not arena memory: never the direct path
                    me.ctHandle = counted;
                    me.matchBits = counted == warm ? 1 : 0;
                    p.meAppend(ni, pt, me, PRIORITY_LIST, null);
                }
                p.barrier();
                if (p.rank() == 1) {
                    Md md = new Md();
                    MemorySegment src = Arena.ofAuto().allocate(8);
                    md.start = src;
                    md.length = 8;
                    md.ctHandle = acked;
                    md.options = MD_EVENT_CT_ACK;
                    MdHandle d = p.mdBind(ni, md);
                    // the connection is made first, by a put both ranks wait for (a connection takes passes on both sides)
                    p.put(d, 0, 8, CT_ACK_REQ, ProcessId.ofRank(0), pt, 1, 0, null, 0);
                    assertEquals(0, p.ctWait(acked, 1).failure());
                    for (int round = 1; round <= rounds; round++) {
                        p.put(d, 0, 8, CT_ACK_REQ, ProcessId.ofRank(0), pt, 0, 0, null, 0);
                        putSent.release();
                        acquire(putTaken);
                        // a total not reached makes a pass on every call: the ack, sent when rank 0 took the put in, comes within a few
                        int acks = 0;
                        while (p.ctGetToward(acked, round + 1).success() < round + 1) {
                            acks++;
                            assertTrue(acks <= 4, "the ack not in after 4 calls that each make a pass");
                        }
                        assertEquals(new CtEvent(0, 0), p.ctGetToward(idle, 0), "the counts, as ctGet answers them");
                    }
                } else {
                    assertEquals(0, p.ctWait(warm, 1).failure());
                    for (int round = 1; round <= rounds; round++) {
                        acquire(putSent);
                        // the idle counter's total (0) is reached: calls only look, but every 8th makes a pass
                        int calls = 0;
                        while (p.ctGetToward(arrived, 0).success() < round) { // total 0: a reached one, whatever the count
                            calls++;
                            assertTrue(calls <= 8, "the put not taken in by 8 calls with a reached total");
                        }
                        assertTrue(calls >= 1, "taken in before any pass: the test shows nothing");
                        putTaken.release();
                    }
                    assertEquals(new CtEvent(rounds, 0), p.ctGet(arrived));
                }
                p.barrier();
            }
        });
    }

    private static void acquire(java.util.concurrent.Semaphore s) {
        try {
            assertTrue(s.tryAcquire(30, java.util.concurrent.TimeUnit.SECONDS), "the other rank did not get there within 30 s");
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
