package dev.ferry;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EnvelopeTest {
    @Test
    void everyFieldComesBackWhole() {
        int[] tags = {0, 1, Ferry.TAG_UB, -1};
        for (int tag : tags) {
            for (int context : new int[] {0, 1, Envelope.CONTEXTS - 1}) {
                for (int kind : new int[] {Envelope.STANDARD, Envelope.SYNC, Envelope.ACK}) {
                    for (int id : new int[] {0, 5, Envelope.SYNC_IDS - 1}) {
                        long h = Envelope.header(context, tag, kind, id);
                        assertEquals(tag, Envelope.tag(h));
                        assertEquals(context, Envelope.context(h));
                        assertEquals(kind, Envelope.kind(h));
                        assertEquals(id, Envelope.syncId(h));
                    }
                }
            }
        }
    }
}
