package dev.ferry;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * How partitioned communication's messages travel: on the communicator's internal context, with
 * negative tags that no collective uses (theirs count up from 0). The one place that names them,
 * and the setup message's fields.
 * <pre>
 *   setup tag  1 0 t...t (30)            the user's tag t, 0..{@link #MAX_TAG}: matched in the order
 *                                        of the sender's psendInit and the receiver's precvInit calls
 *   data tag   1 1 c...c (14) p...p (16) partition p of the sender's channel c
 *
 *   setup message (16 bytes): +0 u32 channel, +4 u32 partitions, +8 u64 bytes per partition
 * </pre>
 * A channel names one partitioned send among its sender's; channel {@code 0x3fff} is never given
 * out, so that no data tag is -1 (a wildcard) or -3 (the close's goodbye).
 */
final class PartitionWire {
    /** The largest tag a partitioned send or receive may have. */
    static final int MAX_TAG = (1 << 30) - 1;
    /** The most partitions one request may have. */
    static final int MAX_PARTITIONS = 1 << 16;
    /** Channels one rank may have open at once (partitioned sends not freed). */
    static final int CHANNELS = (1 << 14) - 1;

    static final long CHANNEL = 0, PARTITIONS = 4, PARTITION_BYTES = 8;
    static final int SETUP_BYTES = 16;

    private PartitionWire() {
    }

    static int setupTag(int tag) {
        return Integer.MIN_VALUE | tag;
    }

    static int dataTag(int channel, int partition) {
        return 0xC000_0000 | channel << 16 | partition;
    }

    static MemorySegment setup(int channel, int partitions, long partitionBytes) {
        MemorySegment m = MemorySegment.ofArray(new long[SETUP_BYTES / 8]);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, CHANNEL, channel);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, PARTITIONS, partitions);
        m.set(ValueLayout.JAVA_LONG_UNALIGNED, PARTITION_BYTES, partitionBytes);
        return m;
    }

    static int channel(MemorySegment setup) {
        return setup.get(ValueLayout.JAVA_INT_UNALIGNED, CHANNEL);
    }

    static int partitions(MemorySegment setup) {
        return setup.get(ValueLayout.JAVA_INT_UNALIGNED, PARTITIONS);
    }

    static long partitionBytes(MemorySegment setup) {
        return setup.get(ValueLayout.JAVA_LONG_UNALIGNED, PARTITION_BYTES);
    }

    /** The channels of one rank's partitioned sends: each given to one send until it is freed. */
    static final class Channels {
        private final java.util.BitSet taken = new java.util.BitSet(CHANNELS);

        synchronized int take() {
            int c = taken.nextClearBit(0);
            if (c >= CHANNELS) {
                throw FerryException.arg(ErrorClass.NO_SPACE, "psendInit: " + CHANNELS + " partitioned sends are open at this rank; free some first");
            }
            taken.set(c);
            return c;
        }

        synchronized void give(int c) {
            taken.clear(c);
        }
    }
}
