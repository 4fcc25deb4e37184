package dev.ferry.core.agent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The links between agents of this process, each on a loopback address of its own as on a node
 * of its own: closed in order when idle or over the cap, opened again by the next record, and
 * nothing lost or taken for a death on the way.
 */
class AgentLinksTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new ArrayList<>();

    private Agent agent(String name, int host, Duration idle, int max) throws Exception {
        Agent a = Agent.start(new Agent.Config(dir.resolve(name + ".sock"), "job-1").withChannels(dir)
                .withLinkAddress(InetAddress.getByName("127.0.0." + host)).withLinks(idle, max));
        Thread t = new Thread(a::run, "agent " + name);
        t.setDaemon(true);
        t.start();
        open.add(a);
        return a;
    }

    private AgentClient rank(String agent, int rank) {
        AgentClient c = AgentClient.connect(dir.resolve(agent + ".sock"), "job-1", BOUND);
        open.add(c);
        c.attach(rank);
        return c;
    }

    private static void await(BooleanSupplier done, String what) {
        if (!dev.ferry.spi.IdleStrategy.DEFAULT.await(done, BOUND.toNanos())) {
            throw new AssertionError("not within " + BOUND + ": " + what);
        }
    }

    /** Sends {@code value} from {@code from}'s rank to rank {@code to}. */
    private static void send(AgentClient from, int to, long value) {
        ByteRing out = from.outRing();
        long[] at = {-1};
        await(() -> (at[0] = out.claim(8)) >= 0, "room in the OUT ring");
        out.memory().set(ValueLayout.JAVA_LONG_UNALIGNED, at[0], value); // claim gives the payload's place
        out.commit(to, ChannelLayout.PACKET, 0, 8);
    }

    /** The next record at {@code c}'s rank: it must be a packet from {@code from} carrying {@code value}. */
    private static void expect(AgentClient c, int from, long value) {
        ByteRing in = c.inRing();
        long[] r = {-1};
        await(() -> (r[0] = in.next()) >= 0, "a record from rank " + from);
        assertEquals(ChannelLayout.PACKET, in.kind(r[0]), "a packet, not a death (kind " + in.kind(r[0]) + ")");
        assertEquals(from, in.origin(r[0]));
        assertEquals(value, in.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, ByteRing.payload(r[0])));
        in.release(r[0]);
    }

    private void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    @Test
    void anIdleLinkClosesInOrderAndTheNextRecordEitherWayOpensItAgain() throws Exception {
        try {
            Agent a = agent("a", 1, Duration.ofMillis(100), 0), b = agent("b", 2, Duration.ofMillis(100), 0);
            AgentClient r0 = rank("a", 0), r1 = rank("b", 1);
            r0.route(1, b.linkAddress());
            r1.route(0, a.linkAddress());
            for (long v = 0; v < 3; v++) {
                send(r0, 1, v);
            }
            for (long v = 0; v < 3; v++) {
                expect(r1, 0, v);
            }
            await(() -> a.openLinks() == 0 && b.openLinks() == 0, "the idle link closed on both sides");
            long asked = r0.linkCounts()[1] + r1.linkCounts()[1];
            assertTrue(asked == 1 || asked == 2, "one side asked, or both at once: " + asked);
            // the other way: b's address sorts second, so b asks a to call it back
            send(r1, 0, 42);
            expect(r0, 1, 42);
            send(r0, 1, 43);
            expect(r1, 0, 43);
            assertTrue(r0.inRing().isEmpty() && r1.inRing().isEmpty(), "no rank was told the other died");
            await(() -> a.openLinks() == 0 && b.openLinks() == 0, "closed again once idle");
        } finally {
            closeAll();
        }
    }

    @Test
    void aCapOfOneLinkClosesTheLeastRecentlyUsedAndLosesNothing() throws Exception {
        try {
            Agent a = agent("a", 1, Duration.ZERO, 1), b = agent("b", 2, Duration.ZERO, 0), c = agent("c", 3, Duration.ZERO, 0);
            AgentClient r0 = rank("a", 0), r1 = rank("b", 1), r2 = rank("c", 2);
            r0.route(1, b.linkAddress());
            r0.route(2, c.linkAddress());
            r1.route(0, a.linkAddress());
            r2.route(0, a.linkAddress());
            for (long round = 0; round < 4; round++) {
                send(r0, 1, 100 + round);
                send(r0, 2, 200 + round); // over the cap: the link to b is asked to close once quiet
                expect(r1, 0, 100 + round);
                expect(r2, 0, 200 + round);
            }
            await(() -> a.openLinks() <= 1, "back within the cap");
            long[] counts = r0.linkCounts();
            assertTrue(counts[2] >= 1, "the cap closed a link: " + java.util.Arrays.toString(counts));
            assertTrue(r0.inRing().isEmpty() && r1.inRing().isEmpty() && r2.inRing().isEmpty(), "no rank was told another died");
        } finally {
            closeAll();
        }
    }
}
