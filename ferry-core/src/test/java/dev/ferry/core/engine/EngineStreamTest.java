package dev.ferry.core.engine;

import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.core.rail.EngineStats;
import dev.ferry.core.request.Message;
import dev.ferry.core.request.MessageHandler;
import dev.ferry.core.request.RecvRequest;
import dev.ferry.core.request.SendRequest;
import dev.ferry.launch.pmi.SingletonBootstrap;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stream of rendezvous on one rank through the self driver, received inside the handler (as
 * the library and the benchmarks do): the CTS of one packet's RTS leave together, a DATA packet
 * announces several chunks, and every byte still lands where it belongs, in order.
 */
class EngineStreamTest {
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final int MESSAGES = 40;
    private static final long SIZE = 64 * 1024;

    @Test
    void aStreamOfRendezvousIsAnnouncedSeveralChunksAPacketAndArrivesIntact() {
        MemorySegment[] in = new MemorySegment[MESSAGES];
        RecvRequest[] recvs = new RecvRequest[MESSAGES];
        long[] headers = new long[MESSAGES];
        int[] count = {0};
        for (int i = 0; i < MESSAGES; i++) {
            in[i] = Arena.ofAuto().allocate(SIZE);
            recvs[i] = new RecvRequest();
        }
        MessageHandler receiveAtOnce = new MessageHandler() {
            @Override
            public void onMessage(Message m) {
                int k = count[0]++;
                headers[k] = m.header();
                m.receive(in[k], recvs[k]);
            }

            @Override
            public void onPeerFailed(int rank, Status status, String why) {
                throw new AssertionError("rank " + rank + " failed: " + why);
            }
        };
        try (Engine e = Engine.init(new SingletonBootstrap(), List.of(DriverCatalog.discover().find("self").orElseThrow()), receiveAtOnce)) {
            assertTrue(SIZE > e.eagerLimit(0), "64 KiB goes by rendezvous");
            MemorySegment out = Arena.ofAuto().allocate(SIZE * MESSAGES);
            SendRequest[] sends = new SendRequest[MESSAGES];
            for (int i = 0; i < MESSAGES; i++) {
                out.asSlice(i * SIZE, SIZE).fill((byte) (i + 1));
                sends[i] = new SendRequest();
                e.send(sends[i].to(0, 100 + i, out.asSlice(i * SIZE, SIZE)));
            }
            for (int i = 0; i < MESSAGES; i++) {
                sends[i].join(BOUND);
            }
            assertEquals(MESSAGES, count[0]);
            for (int i = 0; i < MESSAGES; i++) {
                recvs[i].join(BOUND);
                assertEquals(100 + i, headers[i], "order");
                assertEquals(SIZE, recvs[i].received());
                assertEquals(-1, in[i].mismatch(out.asSlice(i * SIZE, SIZE)), "content of message " + i);
                assertEquals((byte) (i + 1), in[i].get(ValueLayout.JAVA_BYTE, SIZE - 1));
            }
            EngineStats st = e.stats();
            assertEquals(MESSAGES, st.chunksAnnounced(), "one chunk per message");
            assertTrue(st.dataPackets() < MESSAGES, st.dataPackets() + " DATA packets for " + MESSAGES + " chunks");
        }
    }
}
