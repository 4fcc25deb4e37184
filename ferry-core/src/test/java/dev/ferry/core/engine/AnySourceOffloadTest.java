package dev.ferry.core.engine;

import dev.ferry.core.agent.MatchOffload;
import dev.ferry.core.rail.EngineContext;
import dev.ferry.core.rail.EngineStats;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.spi.Capabilities;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverProperties;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Profile;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The engine's receives of any source handed to a context's matcher: taken only where a context
 * matches and the receive is larger than its packets; a match completes the receive with the
 * source and header the matcher names; a match whose bytes could not be placed fails the
 * sender's gate and leaves the receive to it; one the agent never matched stays with the rank.
 * The matcher here answers as the test scripts it (the agent's own side has its tests).
 */
class AnySourceOffloadTest {
    /** A matcher whose answers the test sets. */
    private static final class Scripted implements MatchOffload {
        Status post = Status.DONE, cancel = Status.DONE, poll = Status.NOT_YET;
        int source = -1;
        long header;
        long bits = -1;
        boolean atOnce;

        @Override
        public Status matchPost(Packet packet, long bits, long ignore) {
            this.bits = bits;
            return post;
        }

        @Override
        public Status matchCancel(Packet packet) {
            return cancel;
        }

        @Override
        public Status matchPoll(Packet packet) {
            if (poll == Status.DONE) {
                packet.length(packet.size());
            }
            return poll;
        }

        @Override
        public long matchHeader(Packet packet) {
            return header;
        }

        @Override
        public int matchSource(Packet packet) {
            return source;
        }

        @Override
        public boolean matchPlacedAtOnce(Packet packet) {
            return atOnce;
        }
    }

    /** A driver context of no driver but its matcher: the offload asks a context for nothing else, so the rest refuse. */
    private record Context(MatchOffload matcher) implements DriverContext, MatchOffload.AnySource {
        @Override
        public DriverProperties properties() {
            throw new UnsupportedOperationException();
        }

        @Override
        public DriverUrl init() {
            throw new UnsupportedOperationException();
        }

        @Override
        public DriverInstance newInstance() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }

        @Override
        public MatchOffload anySourceMatcher() {
            return matcher;
        }
    }

    private static EngineContext context(DriverContext c) {
        return new EngineContext(0, "agent", "agent", "test", c, Capabilities.builder().maxPacketSize(1L << 30).transport(dev.ferry.spi.Transport.REMOTE).build(), new Profile(1000, 1000, dev.ferry.spi.CpuSet.all()));
    }

    private final List<String> failedPeers = new ArrayList<>();
    private final Scripted matcher = new Scripted();
    private final EngineStats stats = new EngineStats(new String[] {"agent"});

    private AnySourceOffload offload() {
        return new AnySourceOffload(null, stats, List.of(context(new Context(matcher))), (rank, s, why) -> failedPeers.add(rank + " " + s + ": " + why));
    }

    @Test
    void aMatchCompletesTheReceiveWithTheSourceAndHeaderItNames() {
        try (Arena a = Arena.ofConfined()) {
            AnySourceOffload o = offload();
            assertFalse(o.offloads(0), "an empty receive is never offered");
            assertTrue(o.offloads(8), "a receive an immediate message fits is: the agent matches those too");
            MemorySegment into = a.allocate(1 << 20);
            RecvRequest r = new RecvRequest();
            List<RecvRequest> told = new ArrayList<>();
            assertTrue(o.offload(r, DataLayout.contiguous(into), 0x55L, 0, told::add));
            assertEquals(0x55L, matcher.bits);
            assertEquals(RecvRequest.ARMED_ANY_SOURCE, r.armedBy);
            assertEquals(1, o.armedCount());
            assertFalse(o.poll(), "nothing matched yet");

            matcher.poll = Status.DONE;
            matcher.source = 7;
            matcher.header = 0x1234L;
            assertTrue(o.poll());
            assertEquals(List.of(r), told);
            assertTrue(r.isDone());
            assertEquals(7, r.source());
            assertEquals(0x1234L, r.header());
            assertEquals(into.byteSize(), r.length());
            assertEquals(-1, r.armedBy);
            assertEquals(0, o.armedCount());
            assertEquals(1, stats.armedReceives());
            assertEquals(1, stats.agentMatches());
            assertEquals(into.byteSize(), stats.rendezvousBytes("agent"), "a message pulled counts as rendezvous bytes");
            assertEquals(List.of(), failedPeers);

            // an eager message the agent wrote at the match: its sender counted it as such, so no rendezvous bytes here
            RecvRequest eager = new RecvRequest();
            matcher.poll = Status.NOT_YET;
            assertTrue(o.offload(eager, DataLayout.contiguous(a.allocate(64)), 0x55L, 0, told::add));
            matcher.poll = Status.DONE;
            matcher.atOnce = true;
            assertTrue(o.poll());
            assertTrue(eager.isDone());
            assertEquals(2, stats.agentMatches());
            assertEquals(into.byteSize(), stats.rendezvousBytes("agent"), "an eager message placed by the agent is no rendezvous");
        }
    }

    @Test
    void aRefusedPostIsNotTaken() {
        try (Arena a = Arena.ofConfined()) {
            AnySourceOffload o = offload();
            matcher.post = Status.INVALID;
            assertFalse(o.offload(new RecvRequest(), DataLayout.contiguous(a.allocate(1 << 20)), 0, 0, r -> fail("matched")), "memory the matcher cannot reach");
            matcher.post = Status.NOT_YET;
            RecvRequest r = new RecvRequest();
            assertFalse(o.offload(r, DataLayout.contiguous(a.allocate(1 << 20)), 0, 0, x -> fail("matched")), "no slot free");
            assertEquals(-1, r.armedBy);
            assertEquals(0, o.armedCount());
            assertFalse(new AnySourceOffload(null, stats, List.of(), (rank, s, why) -> { }).offloads(1L << 30), "no context matches");
        }
    }

    @Test
    void aReceiveTakenBackIsTheRanksAndOneClaimedIsNot() {
        try (Arena a = Arena.ofConfined()) {
            AnySourceOffload o = offload();
            RecvRequest r = new RecvRequest();
            assertTrue(o.offload(r, DataLayout.contiguous(a.allocate(1 << 20)), 0, 0, x -> { }));
            matcher.cancel = Status.NOT_YET; // the agent claimed it this moment
            assertFalse(o.reclaim(r));
            assertEquals(RecvRequest.ARMED_ANY_SOURCE, r.armedBy, "still the agent's: it completes by itself");
            matcher.cancel = Status.DONE;
            assertTrue(o.reclaim(r));
            assertEquals(-1, r.armedBy);
            assertEquals(0, o.armedCount());
        }
    }

    @Test
    void aMatchNotPlacedFailsTheSendersGateAndOneNeverMatchedStaysWithTheRank() {
        try (Arena a = Arena.ofConfined()) {
            AnySourceOffload o = offload();
            RecvRequest placed = new RecvRequest(), never = new RecvRequest();
            assertTrue(o.offload(placed, DataLayout.contiguous(a.allocate(1 << 20)), 0, 0, x -> fail("not placed")));
            matcher.poll = Status.BROKEN;
            matcher.source = 3;
            assertTrue(o.poll());
            assertEquals(1, failedPeers.size());
            assertTrue(failedPeers.get(0).startsWith("3 BROKEN: the agent matched a message from rank 3"), failedPeers.toString());
            assertFalse(placed.isDone(), "the gate's failure fails it, with the others of that rank");

            matcher.poll = Status.NOT_YET;
            assertTrue(o.offload(never, DataLayout.contiguous(a.allocate(1 << 20)), 0, 0, x -> fail("never matched")));
            matcher.poll = Status.BROKEN;
            matcher.source = -1; // the agent failed before it matched
            assertTrue(o.poll());
            assertEquals(1, failedPeers.size(), "no gate to fail");
            assertEquals(-1, never.armedBy, "no longer armed: the rank matches it as ever");
            assertFalse(never.isDone());
        }
    }
}
