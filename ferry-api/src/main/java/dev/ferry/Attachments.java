package dev.ferry;

import dev.ferry.portals.MeHandle;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A dynamic window's attached memory at one rank, and the table through which origins find it
 * (MPI addresses dynamic windows by the target's absolute address). Each attachment is a list
 * entry of its own, with match bits {@code FIRST_BITS + slot}; the table, in the shared arena and
 * exposed as an entry of its own ({@link #TABLE_BITS}), says which range each slot covers. An
 * origin reads a target's table when an address is not in its copy (so an attach is seen once the
 * program has synchronized, as MPI requires), then addresses the slot's entry at the offset from
 * the range's base. The table's layout, little-endian:
 * <pre>
 *   offset  size
 *   0       8     slots in use: one past the highest live slot
 *   8+24k   8     slot k's base address (the attached segment's address at its owner)
 *   16+24k  8     slot k's length in bytes (0: the slot is free)
 *   24+24k  8     slot k's match bits
 * </pre>
 *
 * <pre>{@code
 * long[] at = new long[2];
 * if (Attachments.find(copy, address, length, at)) put(..., at[0] (match bits), at[1] (offset), ...);
 * }</pre>
 */
final class Attachments {
    static final int MAX = 64;
    static final long COUNT = 0, ENTRIES = 8, ENTRY = 24, BASE = 0, LENGTH = 8, BITS = 16;
    static final long BYTES = ENTRIES + MAX * ENTRY;
    /** Match bits of the table's entry, and of slot 0's (slot k: FIRST_BITS + k). */
    static final long TABLE_BITS = 2, FIRST_BITS = 16;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;

    /** This rank's table (exposed to the others), and the arena memory it lies in. */
    final MemorySegment table;
    final MemorySegment whole;
    private final MemorySegment[] attached = new MemorySegment[MAX];
    private final MeHandle[] entries = new MeHandle[MAX];

    /** Over {@code whole}, zeroed memory of at least {@link #BYTES} from the shared arena. */
    Attachments(MemorySegment whole) {
        this.whole = whole;
        this.table = whole.asSlice(0, BYTES);
    }

    /** A free slot, or -1 when all {@link #MAX} are taken. */
    int freeSlot() {
        for (int k = 0; k < MAX; k++) {
            if (attached[k] == null) {
                return k;
            }
        }
        return -1;
    }

    /** Records {@code m} in slot {@code k} (from {@link #freeSlot}), exposed by {@code entry}, and publishes it in the table. */
    void add(int k, MemorySegment m, MeHandle entry) {
        attached[k] = m;
        entries[k] = entry;
        long e = ENTRIES + k * ENTRY;
        table.set(I64, e + BASE, m.address());
        table.set(I64, e + BITS, FIRST_BITS + k);
        table.set(I64, e + LENGTH, m.byteSize());
        table.set(I64, COUNT, Math.max(table.get(I64, COUNT), k + 1));
    }

    /** The slot of the attachment at {@code m}'s address and size, or -1. */
    int slotOf(MemorySegment m) {
        for (int k = 0; k < MAX; k++) {
            if (attached[k] != null && attached[k].address() == m.address() && attached[k].byteSize() == m.byteSize()) {
                return k;
            }
        }
        return -1;
    }

    /** Frees slot {@code k}; answers its list entry (to unlink). */
    MeHandle remove(int k) {
        table.set(I64, ENTRIES + k * ENTRY + LENGTH, 0);
        MeHandle e = entries[k];
        attached[k] = null;
        entries[k] = null;
        return e;
    }

    /** Every attachment's list entry (the window is freed). */
    MeHandle[] all() {
        return entries.clone();
    }

    /**
     * In a copy of a table, the slot covering {@code length} bytes from {@code address}: its match
     * bits in {@code out[0]} and the offset from its base in {@code out[1]}; false when none does.
     */
    static boolean find(MemorySegment copy, long address, long length, long[] out) {
        long n = Math.min(MAX, copy.get(I64, COUNT));
        for (int k = 0; k < n; k++) {
            long e = ENTRIES + k * ENTRY;
            long base = copy.get(I64, e + BASE), len = copy.get(I64, e + LENGTH);
            if (len > 0 && Long.compareUnsigned(address, base) >= 0 && address - base <= len && length <= len - (address - base)) {
                out[0] = copy.get(I64, e + BITS);
                out[1] = address - base;
                return true;
            }
        }
        return false;
    }
}
