package dev.ferry.portals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

import static dev.ferry.portals.DirectoryLayout.*;
import static dev.ferry.portals.Portals.*;

/**
 * The initiator side of direct access: an operation aimed at a same-node peer whose entry
 * directory ({@link Directory}) publishes the entry it matches is done here, on the peer's memory
 * mapped into this process, with no message: a memcpy for put and get, atomic instructions
 * for atomics ({@link Atomics#applyAtomically}; the peer does its own atomics on
 * published entries the same way). The events this process owes are posted at once: the
 * operation is complete when the call returns.
 *
 * <p>The first operation towards a same-node peer asks for its directory (a DIR_REQ message);
 * until the answer, and whenever an operation does not qualify, operations go by message.
 * Ordering: the library promises write-after-write and write-after-read order up to its ordered
 * sizes, and a direct operation takes effect at once, so it is taken only while no message-path
 * operation to that peer is still unperformed ({@link #pending}): those are counted from the
 * first request on, and each one is answered (silently when its caller asked for no ack).
 *
 * <pre>{@code
 * if (lib.direct.start(type, ni, putMd, putOff, getMd, getOff, length, ack, target, pt, bits, off, userPtr, hdr, operand, op, dt)) {
 *     return;   // done, events posted
 * }
 * }</pre>
 */
final class DirectAccess {
    private static final byte UNKNOWN = 0, ASKED = 1, READY = 2, NONE = 3;

    private final Library lib;
    /** {@code FERRY_PORTALS_DIRECT=off} turns direct access off (every operation by message). */
    private final boolean enabled;
    private final byte[] state;
    private final MemorySegment[] dirs;
    /** Message-path operations to each peer not yet known performed (counted from the first DIR_REQ). */
    private final int[] pending;
    /** The mapped memory of each peer's slots, for the slot state it was mapped under. */
    private final MemorySegment[][] memory;
    private final long[][] mappedState;
    private final long hazardWord;
    /** Operations done directly (tests and {@code ferry info} read it). */
    long done;

    /** Whether FERRY_PORTALS_DIRECT allows direct operations at all. */
    boolean enabled() {
        return enabled;
    }

    DirectAccess(Library lib, boolean enabled) {
        this.lib = lib;
        this.enabled = enabled;
        this.state = new byte[lib.size];
        this.dirs = new MemorySegment[lib.size];
        this.pending = new int[lib.size];
        this.memory = new MemorySegment[lib.size][];
        this.mappedState = new long[lib.size][];
        this.hazardWord = hazard(lib.rank);
    }

    /**
     * Whether operations to {@code target} are counted for ordering (and answered): once this
     * process asked for its directory. Asks on the first call for a same-node peer.
     */
    boolean counts(int target) {
        byte s = state[target];
        if (s == UNKNOWN) {
            s = state[target] = enabled && target != lib.rank && lib.nid[target] == lib.nid[lib.rank] ? ASKED : NONE;
            if (s == ASKED) {
                InlineSender.Outgoing out = lib.sender.takeHeader();
                PtlWire.request(out.buf, PtlWire.DIR_REQ, 0, 0, 0, 0, 0, 0, lib.uid, 0, 0, 0, 0, 0, 0);
                lib.sender.send(target, out, PtlWire.HEADER);
            }
        }
        return s == ASKED || s == READY;
    }

    void counted(int target) {
        pending[target]++;
    }

    void performed(int target) {
        pending[target]--;
    }

    /** The answer to our DIR_REQ: the peer's directory key (none: it has no directory to share). */
    void directoryKey(int peer, MemorySegment buf, long at, long n) {
        if (state[peer] != ASKED) {
            return;
        }
        MemorySegment d = null;
        if (n > 0 && n <= 255) {
            byte[] key = new byte[(int) n];
            MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, at, key, 0, (int) n);
            d = lib.engine.peerMemory(peer, key);
        }
        if (d != null && DirectoryLayout.valid(d, lib.size)) {
            dirs[peer] = d;
            memory[peer] = new MemorySegment[SLOTS];
            mappedState[peer] = new long[SLOTS];
            state[peer] = READY;
        } else {
            state[peer] = NONE; // ops stay counted until answered; no more are counted from now on
        }
    }

    /**
     * Does the operation directly when {@code target} publishes the entry it matches and nothing
     * sent earlier to it is unperformed; true when done (its events posted), false to send it.
     */
    boolean start(byte type, Ni ni, MemDesc putMd, long putOff, MemDesc getMd, long getOff, long length, AckReq ack, int target,
                  int ptIndex, long matchBits, long remoteOffset, Object userPtr, long hdrData, MemorySegment operand, Op op, Datatype dt) {
        if (state[target] != READY || pending[target] != 0 || remoteOffset < 0) { // an unsigned offset past 2^63: the message path truncates it
            return false;
        }
        MemorySegment d = dirs[target];
        long found = PublishedEntries.first(d, ni.index, ptIndex, matchBits, lib.rank, remoteOffset, length);
        if (found < 0) {
            return false; // no published match (the message path decides), or the list changed as we read it
        }
        int slot = PublishedEntries.slotOf(found);
        long at = slot(slot);
        int options = d.get(ValueLayout.JAVA_INT, at + SLOT_OPTIONS);
        int uid = d.get(ValueLayout.JAVA_INT, at + SLOT_UID);
        boolean allowed = switch (type) {
            case PtlWire.PUT, PtlWire.ATOMIC -> (options & ME_OP_PUT) != 0;
            case PtlWire.GET -> (options & ME_OP_GET) != 0;
            default -> (options & ME_OP_PUT) != 0 && (options & ME_OP_GET) != 0;
        };
        if (!allowed || uid != UID_ANY && uid != lib.uid) {
            return false; // the message path reports the violation, and counts it at the target
        }
        if ((d.get(ValueLayout.JAVA_INT, at + SLOT_FLAGS) & PEERS_SKIP) != 0) {
            return false; // the target fires a triggered operation on the count: its own count wakes it
        }
        long entryLength = d.get(ValueLayout.JAVA_LONG, at + SLOT_LENGTH);
        long mlength = Math.min(length, Math.max(0, entryLength - remoteOffset));
        if (dt != null) {
            mlength = dt.wholeElements(mlength);
        }
        MemorySegment mem = mapped(target, d, slot, found);
        if (mem == null || mem.byteSize() != entryLength) {
            return false;
        }
        // what atomics need: a coherent type, aligned in the target, and the local data in one piece
        MemorySegment src = null, dst = null;
        long srcAt = 0, dstAt = 0;
        if (dt != null) {
            if (!Atomics.coherent(dt) || mlength > lib.atomicMax || !dt.divides(mem.address() + remoteOffset)) {
                return false;
            }
            src = putMd.region.containing(putOff, length);
            srcAt = putMd.region.foundAt;
            if (src == null) {
                return false;
            }
            if (getMd != null) {
                dst = getMd.region.containing(getOff, length);
                dstAt = getMd.region.foundAt;
                if (dst == null) {
                    return false;
                }
            }
        }
        // the hazard: announce the slot, then check it is still live (the owner does the reverse)
        if (!PublishedEntries.enter(d, hazardWord, found)) {
            return false;
        }
        try {
            switch (type) {
                case PtlWire.PUT -> {
                    if (mlength > 0) {
                        putMd.region.copyOut(putOff, mem, remoteOffset, mlength);
                    }
                }
                case PtlWire.GET -> {
                    if (mlength > 0) {
                        getMd.region.copyIn(getOff, mem, remoteOffset, mlength);
                    }
                }
                default -> Atomics.applyAtomically(op, dt, mem, remoteOffset, src, srcAt, mlength, operand, 0, dst, dstAt, lib.atomicScratch);
            }
            DirectoryLayout.count(d, at, options, mlength);
        } finally {
            PublishedEntries.leave(d, hazardWord);
        }
        done++;
        lib.initiator.directDone(type, putMd, getMd, length, mlength, remoteOffset, ack, (options & ME_ACK_DISABLE) != 0, userPtr,
                ptIndex, matchBits, hdrData);
        return true;
    }

    /** The peer's memory of {@code slot}, mapped once per slot generation ({@code found}: {@link PublishedEntries#first}'s word for it). */
    private MemorySegment mapped(int peer, MemorySegment d, int slot, long found) {
        MemorySegment[] m = memory[peer];
        if (m[slot] != null && mappedState[peer][slot] == found) {
            return m[slot];
        }
        long at = slot(slot);
        int n = d.get(ValueLayout.JAVA_INT, at + SLOT_KEY_LENGTH);
        if (n <= 0 || n > MAX_KEY) {
            return null;
        }
        byte[] key = new byte[n];
        MemorySegment.copy(d, ValueLayout.JAVA_BYTE, at + SLOT_KEY, key, 0, n);
        if (hazardOf(slot, (long) LONG.getAcquire(d, at + SLOT_STATE)) != found) {
            return null; // reused as we read its key
        }
        MemorySegment mem = lib.engine.peerMemory(peer, key);
        m[slot] = mem;
        mappedState[peer][slot] = found;
        return mem;
    }

    /** A peer died: nothing of it is reached directly any more. */
    void peerFailed(int peer) {
        state[peer] = NONE;
        dirs[peer] = null;
    }
}
