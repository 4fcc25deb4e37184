package dev.ferry.driver.tcp;

import dev.ferry.conformance.DriverConformanceTest;
import dev.ferry.conformance.PeerLink;
import dev.ferry.launch.ChildJvm;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The tcp driver between network hosts of their own: network namespaces joined by a veth pair,
 * made and removed here (as root). Skipped, with the reason, where namespaces cannot be made.
 */
class TcpNamespaceTest {
    private static final long PID = ProcessHandle.current().pid();
    private static final int NET = (int) (PID % 200) + 20;

    @BeforeAll
    static void needNamespaces() {
        String why = Netns.unavailableReason();
        Assumptions.assumeTrue(why == null, why);
    }

    @Test
    void theConformanceKitPassesBetweenTwoNamespaces() {
        String nsA = "ferry-a-" + PID;
        String nsB = "ferry-b-" + PID;
        String va = "fa" + PID % 10_000_000;
        String vb = "fb" + PID % 10_000_000;
        try {
            Netns.add(nsA);
            Netns.add(nsB);
            Netns.veth(va, nsA, "10.251." + NET + ".1/24", vb, nsB, "10.251." + NET + ".2/24");
            ChildJvm kit = ChildJvm.builder(NamespaceKitMain.class.getName())
                    .prefix(Netns.execPrefix(nsA))
                    .env("FERRY_TCP_INTERFACES", va)
                    .jvmOptions(List.of(
                            "-D" + DriverConformanceTest.PEER_PREFIX_PROPERTY + "=ip netns exec " + nsB,
                            "-D" + DriverConformanceTest.PEER_ENV_PROPERTY + "=FERRY_TCP_INTERFACES=" + vb))
                    .start();
            try {
                String summary = kit.readAnswer(Duration.ofMinutes(5));
                String failures = kit.readAnswer(Duration.ofSeconds(30));
                assertTrue(summary.matches("\\d+ passed, 0 failed, 0 skipped"), summary + ": " + failures);
                assertTrue(Integer.parseInt(summary.split(" ")[0]) >= 19, summary);
                assertEquals(0, kit.waitFor(Duration.ofSeconds(60)));
            } finally {
                kit.close();
            }
        } finally {
            Netns.delete(nsA);
            Netns.delete(nsB);
        }
    }

    @Test
    void aSilentPeerIsBrokenByKeepalive() throws Exception {
        String nsB = "ferry-k-" + PID;
        String va = "ka" + PID % 10_000_000;
        String vb = "kb" + PID % 10_000_000;
        PeerLink peer = null;
        DriverContext ctx = null;
        try {
            Netns.add(nsB);
            Netns.veth(va, null, "10.252." + NET + ".1/24", vb, nsB, "10.252." + NET + ".2/24");
            ctx = new TcpDriver().newContext(new Hints(2, 0, true, Map.of(TcpDriver.INTERFACE_ATTRIBUTE, va),
                    dev.ferry.spi.Settings.fromEnvironment().with("FERRY_TCP_KEEPALIVE_S", "1")));
            ctx.properties();
            DriverUrl url = ctx.init();
            peer = PeerLink.inProcess(TcpDriver.class, List.of(), Netns.execPrefix(nsB), Map.of("FERRY_TCP_INTERFACES", vb));
            String peerUrl = peer.call("open 1");
            DriverInstance inst = ctx.newInstance();
            assertEquals(Status.DONE, inst.connectAsync(DriverUrl.parse(peerUrl)));
            assertEquals("DONE", peer.call("connect 0 " + url.toText()));
            peer.call("serve 0 idle");
            assertEquals(Status.DONE, inst.connectWait());

            // the peer's host drops off the network: no FIN, no RST, just silence
            Netns.run("ip", "netns", "exec", nsB, "ip", "link", "set", vb, "down");
            long start = System.nanoTime();
            Packet p = new Packet().useIov(IoVec.of(Arena.ofAuto().allocate(8)));
            assertEquals(Status.DONE, inst.recvPost(p));
            Status s;
            while ((s = inst.recvPoll(p)) == Status.NOT_YET) {
                if (System.nanoTime() - start > TimeUnit.SECONDS.toNanos(60)) {
                    fail("a silent peer was not noticed within 60 s");
                }
                Thread.yield();
            }
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertEquals(Status.BROKEN, s);
            assertTrue(seconds <= 30, "keepalive took " + seconds + " s (idle 1 s + 3 probes 2 s apart)");
        } finally {
            if (ctx != null) {
                ctx.close();
            }
            if (peer != null) {
                peer.kill();
            }
            Netns.delete(nsB);
            Netns.deleteLink(va);
        }
    }
}
