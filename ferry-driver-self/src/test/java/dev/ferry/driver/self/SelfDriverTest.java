package dev.ferry.driver.self;

import dev.ferry.conformance.Transfers;
import dev.ferry.conformance.WaitAnyNews;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The self driver's own behaviour beyond the kit, with two contexts of this JVM. */
class SelfDriverTest {
    private final List<SelfContext> contexts = new ArrayList<>();

    @AfterEach
    void closeAll() {
        contexts.forEach(SelfContext::close);
    }

    private SelfContext open() {
        SelfContext c = (SelfContext) new SelfDriver().newContext(Hints.single());
        c.properties();
        contexts.add(c);
        return c;
    }

    /**
     * A sender's wait-any returns when its peer moves a send on without a packet, so that an
     * engine dozing in it (ranks as threads) sees the send complete at once: a large packet
     * copied by the receiver, and room freed in a full ring. Each step runs while the wait sleeps.
     */
    @Test
    void aSleepingWaitAnyReturnsWhenThePeerMovesASendOn() throws Exception {
        SelfContext a = open();
        SelfContext b = open();
        DriverUrl ua = a.init();
        DriverUrl ub = b.init();
        DriverInstance ia = a.newInstance();
        DriverInstance ib = b.newInstance();
        assertEquals(Status.DONE, ia.connectAsync(ub));
        assertEquals(Status.DONE, ib.connectAsync(ua));
        assertEquals(Status.DONE, ia.connectWait());
        assertEquals(Status.DONE, ib.connectWait());

        MemorySegment large = Arena.ofAuto().allocate(1 << 16);
        large.fill((byte) 7);
        Packet sent = new Packet().useIov(IoVec.of(large));
        assertEquals(Status.DONE, ia.sendPost(sent));
        assertEquals(Status.NOT_YET, ia.sendPoll(sent), "a large packet is copied by the receiver");
        MemorySegment in = Arena.ofAuto().allocate(1 << 16);
        WaitAnyNews.expect(a, a::asleep, () -> {
            Packet q = new Packet().useIov(IoVec.of(in));
            assertEquals(Status.DONE, ib.recvPost(q));
            assertEquals(Status.DONE, Transfers.await(() -> ib.recvPoll(q), "receive"));
        }, "the peer copied a large packet");
        assertEquals(Status.DONE, ia.sendPoll(sent));
        assertEquals(-1L, large.mismatch(in), "the large packet arrived whole");

        MemorySegment small = Arena.ofAuto().allocate(8);
        int posted = 0;
        while (ia.sendPost(new Packet().useIov(IoVec.of(small))) == Status.DONE) {
            posted++;
        }
        assertEquals(SelfRing.CAPACITY, posted, "packets the ring holds");
        WaitAnyNews.expect(a, a::asleep, () -> {
            Packet q = new Packet().useIov(IoVec.of(Arena.ofAuto().allocate(8)));
            assertEquals(Status.DONE, ib.recvPost(q));
            assertEquals(Status.DONE, Transfers.await(() -> ib.recvPoll(q), "receive"));
        }, "the peer took a packet from a full ring");
        assertEquals(Status.DONE, ia.sendPost(new Packet().useIov(IoVec.of(small))), "a post into the room freed");
    }
}
