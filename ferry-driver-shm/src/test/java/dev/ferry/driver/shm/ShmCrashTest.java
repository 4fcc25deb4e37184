package dev.ferry.driver.shm;

import dev.ferry.conformance.PeerLink;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A peer process killed with SIGKILL: its instance breaks within the bound, and nothing of it
 * stays in /dev/shm once a context is next opened on the node.
 */
class ShmCrashTest {
    private String deadMark = "never";

    @Test
    void aKilledPeerLeavesNothingBehind() throws Exception {
        PeerLink peer = PeerLink.inProcess(ShmDriver.class, List.of());
        DriverContext ctx = new ShmDriver().newContext(new Hints(2, 0, true, Map.of()));
        try {
            ctx.properties();
            DriverUrl url = ctx.init();
            String[] urls = peer.call("open 2").split(" ");
            long peerPid = -1;
            DriverInstance first = null;
            for (int c = 0; c < 2; c++) {
                DriverInstance inst = ctx.newInstance();
                if (c == 0) {
                    first = inst;
                }
                assertEquals(Status.DONE, inst.connectAsync(DriverUrl.parse(urls[c])));
                assertEquals("DONE", peer.call("connect " + c + " " + url.toText()));
                peer.call("serve " + c + " echo");
                assertEquals(Status.DONE, inst.connectWait());
                if (c == 0) {
                    // the peer's files carry its pid in their names
                    String name = new String(DriverUrl.parse(urls[0]).first()).substring(ShmContext.URL_PREFIX.length());
                    peerPid = Long.parseLong(name.replaceAll(".*-p(\\d+)-c.*", "$1"));
                }
            }
            String mark = "-p" + peerPid + "-";
            assertFalse(ShmDriverTest.files("ferry-*").stream().noneMatch(f -> f.toString().contains(mark)), "the peer has files while alive");
            deadMark = mark;

            peer.kill(); // SIGKILL: no chance to clean up

            // its instance breaks within the bound
            Packet p = new Packet().useIov(IoVec.of(Arena.ofAuto().allocate(8)));
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            assertEquals(Status.DONE, first.recvPost(p));
            Status s;
            while ((s = first.recvPoll(p)) == Status.NOT_YET) {
                if (System.nanoTime() - end > 0) {
                    fail("no BROKEN within 30 s of the peer's death");
                }
                Thread.onSpinWait();
            }
            assertEquals(Status.BROKEN, s);
        } finally {
            ctx.close();
            peer.close();
        }
        // the next context opened on this node reclaims what the dead process left
        DriverContext next = new ShmDriver().newContext(Hints.single());
        try {
            next.properties();
            next.init();
            List<Path> left = ShmDriverTest.files("ferry-*");
            assertTrue(left.stream().noneMatch(f -> f.getFileName().toString().contains(deadMark)), "left behind by the killed peer: " + left);
        } finally {
            next.close();
        }
        assertEquals(List.of(), ShmDriverTest.files("ferry-solo-*"));
    }
}
