package dev.ferry.core.agent;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The probes of links closed in order, the other agent played by a listener of this test (or by
 * none: a port nobody listens on), the clock given by the test.
 */
class LinkProbesTest {
    private static final long SECOND = 1_000_000_000L;

    private final List<String> broken = new ArrayList<>();
    private boolean attached = true;

    private final LinkProbes.Network network = new LinkProbes.Network() {
        @Override
        public ByteBuffer hello(int flags) {
            return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(0, AgentLinkHello.MAGIC).putInt(4, flags);
        }

        @Override
        public void broke(AgentLink l, String why) {
            l.state = AgentLink.State.BROKEN;
            broken.add(l.address + ": " + why);
        }

        @Override
        public boolean anyAttached() {
            return attached;
        }
    };

    /** A link closed in order at {@code at}, one rank behind it. */
    private static AgentLink closedLink(String address, long at) {
        AgentLink l = new AgentLink(address);
        l.ranks.add(7);
        l.closedAt = at;
        return l;
    }

    /** Steps the probes until {@code done}, the clock at {@code now}; fails past 10 s of real time. */
    private static void stepUntil(LinkProbes p, long now, java.util.function.BooleanSupplier done) {
        long end = System.nanoTime() + 10 * SECOND;
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "the probe did not end within 10 s");
            p.step(now);
            Thread.onSpinWait();
        }
    }

    @Test
    void aLinkIsProbedOnceClosedASecondAndItsLiveAgentGreetedWithAProbe() throws Exception {
        try (Selector selector = Selector.open(); ServerSocketChannel other = ServerSocketChannel.open()) {
            other.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            String address = "127.0.0.1:" + ((InetSocketAddress) other.getLocalAddress()).getPort();
            LinkProbes p = new LinkProbes(network, selector);
            long t0 = 5 * SECOND;
            AgentLink l = closedLink(address, t0);
            p.closed(l);
            assertEquals(SECOND, p.untilDue(t0), "due a second after the close");
            p.step(t0 + SECOND / 2);
            assertEquals(0, p.started(), "not before");

            p.step(t0 + SECOND + 1);
            assertEquals(1, p.started());
            try (SocketChannel c = other.accept()) {
                ByteBuffer h = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
                stepUntil(p, t0 + SECOND + 2, () -> !p.underWay());
                while (h.hasRemaining()) {
                    assertTrue(c.read(h) >= 0, "the greeting came whole");
                }
                assertEquals(AgentLinkHello.PROBE, h.getInt(4), "flagged a probe: the other agent closes it");
            }
            assertEquals(List.of(), broken, "a live agent");
            assertEquals(AgentLink.State.NEW, l.state);
            assertEquals(SECOND, p.untilDue(t0 + SECOND + 1), "probed again a second after the last probe");
        }
    }

    @Test
    void aProbeRefusedBreaksTheLink() throws Exception {
        String address;
        try (ServerSocketChannel gone = ServerSocketChannel.open()) {
            gone.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            address = "127.0.0.1:" + ((InetSocketAddress) gone.getLocalAddress()).getPort();
        } // nobody listens there now: the agent died
        try (Selector selector = Selector.open()) {
            LinkProbes p = new LinkProbes(network, selector);
            AgentLink l = closedLink(address, 0);
            p.closed(l);
            p.step(2 * SECOND);
            stepUntil(p, 2 * SECOND, () -> !broken.isEmpty());
            assertEquals(AgentLink.State.BROKEN, l.state);
            assertTrue(broken.get(0).startsWith(address + ": a probe found the agent at " + address + " gone"), broken.toString());
            assertEquals(Long.MAX_VALUE, p.untilDue(3 * SECOND), "nothing left to probe");
        }
    }

    @Test
    void nothingIsProbedWhileNoRankIsHereToTellOrNobodyIsBehindTheLink() throws Exception {
        try (Selector selector = Selector.open()) {
            LinkProbes p = new LinkProbes(network, selector);
            AgentLink l = closedLink("127.0.0.1:9", 0);
            p.closed(l);
            attached = false;
            assertEquals(Long.MAX_VALUE, p.untilDue(SECOND));
            p.step(2 * SECOND);
            assertEquals(0, p.started(), "no rank attached");
            attached = true;
            l.ranks.clear();
            p.step(3 * SECOND);
            assertEquals(0, p.started(), "no rank behind it");
            assertEquals(Long.MAX_VALUE, p.untilDue(3 * SECOND), "and it is forgotten");
        }
    }
}
