package dev.ferry.core.agent;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ByteRingTest {
    private static final int BYTES = 4096;

    private static MemorySegment memory(Arena a) {
        return a.allocate(ChannelLayout.RING_DATA + BYTES, 64);
    }

    @Test
    void recordsComeOutInOrderWithTheirFields() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = memory(a);
            ByteRing producer = ByteRing.at(m, 0, BYTES), consumer = ByteRing.at(m, 0, BYTES);
            assertEquals(-1, consumer.next());
            for (int i = 0; i < 3; i++) {
                long at = producer.claim(100);
                m.set(ValueLayout.JAVA_INT, at, 1000 + i);
                producer.commit(7, 5, ChannelLayout.PACKET, 2 - i, 4 + i);
            }
            for (int i = 0; i < 3; i++) {
                long r = consumer.next();
                assertEquals(1000 + i, m.get(ValueLayout.JAVA_INT, ByteRing.payload(r)));
                assertEquals(4 + i, consumer.length(r));
                assertEquals(5, consumer.peer(r));
                assertEquals(7, consumer.origin(r));
                assertEquals(2 - i, consumer.more(r));
                consumer.release(r);
            }
            assertTrue(consumer.isEmpty());
        }
    }

    @Test
    void aFullRingRefusesUntilTheConsumerReleasesAndRecordsNeverWrap() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = memory(a);
            ByteRing producer = ByteRing.at(m, 0, BYTES), consumer = ByteRing.at(m, 0, BYTES);
            int sent = 0, received = 0;
            for (int round = 0; round < 200; round++) {
                long at;
                while ((at = producer.claim(1000)) >= 0) { // records of 1000 bytes: wrapping needs padding
                    assertTrue(at - ChannelLayout.RING_DATA + 1000 <= BYTES, "a record passes the data's end");
                    m.set(ValueLayout.JAVA_INT, at, sent);
                    m.set(ValueLayout.JAVA_INT, at + 996, sent);
                    producer.commit(0, ChannelLayout.PACKET, 0, 1000);
                    sent++;
                }
                long r = consumer.next();
                assertEquals(received, m.get(ValueLayout.JAVA_INT, ByteRing.payload(r)));
                assertEquals(received, m.get(ValueLayout.JAVA_INT, ByteRing.payload(r) + 996));
                consumer.release(r);
                received++;
            }
            assertTrue(sent > 200, "sent " + sent);
        }
    }

    @Test
    void aRecordLargerThanHalfTheRingIsRefusedByName() {
        try (Arena a = Arena.ofConfined()) {
            ByteRing r = ByteRing.at(memory(a), 0, BYTES);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.claim(BYTES));
            assertTrue(e.getMessage().contains("at most " + r.maxPayload()), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> ByteRing.at(a.allocate(64), 0, BYTES));
        }
    }
}
