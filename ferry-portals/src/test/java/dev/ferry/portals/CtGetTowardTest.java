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
 * and on every 8th call once it is (the library of a job of one rank: a put to itself arrives
 * only through a pass; no passive-progress thread, so only these calls make passes).
 */
class CtGetTowardTest {
    @Test
    void aReachedTotalMakesAPassEveryEighthCallAndAShortOneOnEach() throws Exception {
        InProcessJob.run(1, Duration.ofSeconds(60), boot -> {
            PortalsConfig c = new PortalsConfig().bootstrap(boot).settings(Settings.fromEnvironment().with("FERRY_PORTALS_PROGRESS", "caller"));
            try (PortalsLibrary p = PortalsLibrary.open(c)) {
                NiHandle ni = p.niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
                int pt = p.ptAlloc(ni, 0, EQ_NONE, PT_ANY);
                CtHandle arrived = p.ctAlloc(ni), acked = p.ctAlloc(ni), idle = p.ctAlloc(ni);
                Me me = new Me();
                me.start = Arena.ofAuto().allocate(8);
                me.length = 8;
                me.options = ME_OP_PUT | ME_EVENT_CT_COMM;
                me.ctHandle = arrived;
                p.meAppend(ni, pt, me, PRIORITY_LIST, null);
                Md md = new Md();
                MemorySegment src = Arena.ofAuto().allocate(8);
                md.start = src;
                md.length = 8;
                md.ctHandle = acked;
                md.options = MD_EVENT_CT_ACK;
                MdHandle d = p.mdBind(ni, md);
                ProcessId me0 = ProcessId.ofRank(0);
                for (int round = 1; round <= 3; round++) {
                    p.put(d, 0, 8, CT_ACK_REQ, me0, pt, 0, 0, null, 0);
                    // the idle counter's total (0) is reached: calls only look, but every 8th makes a pass
                    int calls = 0;
                    while (p.ctGetToward(arrived, 0).success() < round) { // total 0: a reached one, whatever the count
                        calls++;
                        assertTrue(calls <= 8, "the put to itself not taken in by 8 calls with a reached total");
                    }
                    assertTrue(calls >= 1, "taken in before any pass: the test shows nothing");
                    // a total not reached makes a pass on every call: the ack comes within a few
                    int acks = 0;
                    while (p.ctGetToward(acked, round).success() < round) {
                        acks++;
                        assertTrue(acks <= 4, "the ack not in after 4 calls that each make a pass");
                    }
                    assertEquals(new CtEvent(0, 0), p.ctGetToward(idle, 0), "the counts, as ctGet answers them");
                }
                assertEquals(new CtEvent(3, 0), p.ctGet(arrived));
            }
        });
    }
}
