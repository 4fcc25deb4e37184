package dev.ferry.internal;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.Request;
import dev.ferry.Status;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * How the arrays {@link OutOfBand} leaves out of a stream travel: each as messages of at most
 * {@link #CHUNK} bytes, to one destination with one tag, in order, so that both sides cut it the
 * same way without a word. A blocking send and every receive cross two off-heap chunks, one
 * filled while the other is in flight: heap memory of any kind but byte[] would take the drivers'
 * slow paths (shm's bounce buffer, tcp's staging copy), where native memory goes by
 * process_vm_readv and straight socket writes. A detached send copies the arrays out whole and
 * returns at once.
 *
 * <pre>{@code
 * OutOfBandArrays.send(comm, out.arrays(), dest, tag);              // after the stream
 * try (OutOfBandArrays.Receiver r = new OutOfBandArrays.Receiver(comm, source, tag)) {
 *     Object graph = new OutOfBand.Input(in, r).readObject();
 * }
 * }</pre>
 */
public final class OutOfBandArrays {
    /** Bytes of an array one message carries. */
    public static final long CHUNK = 16 << 20;

    private OutOfBandArrays() {
    }

    /** Sends {@code arrays} (after their stream), blocking until each chunk has gone. */
    public static void send(Comm comm, List<Object> arrays, int dest, int tag) {
        if (arrays.isEmpty()) {
            return;
        }
        try (Staging s = new Staging()) {
            for (Object a : arrays) {
                s.send(comm, OutOfBand.segment(a), dest, tag);
            }
        }
    }

    /**
     * Copies {@code arrays} out and starts sending the copies, chunk by chunk; returns at once. The
     * copies go when the receiver takes them (a progress pass moves them, the closing Ferry
     * instance waits for them) and are freed once all went, or failed. For senders that must not
     * wait for the receiver: an MPI send whose receiver takes the arrays only when its receive is
     * waited for ({@code MPI.OBJECT}'s Irecv), while itself sending.
     */
    public static void sendDetached(Comm comm, List<Object> arrays, int dest, int tag) {
        sendDetached(comm, arrays, new int[] {dest}, tag);
    }

    /** {@link #sendDetached(Comm, List, int, int)} to each of {@code dests}, from one copy. */
    public static void sendDetached(Comm comm, List<Object> arrays, int[] dests, int tag) {
        if (arrays.isEmpty() || dests.length == 0) {
            return;
        }
        long total = 0;
        for (Object a : arrays) {
            total += OutOfBand.segment(a).byteSize();
        }
        Arena arena = Arena.ofShared(); // the progress pass that completes the last send may run in another thread
        MemorySegment copy = arena.allocate(Math.max(1, total), 4096);
        long at = 0;
        for (Object a : arrays) {
            MemorySegment m = OutOfBand.segment(a);
            MemorySegment.copy(m, 0, copy, at, m.byteSize());
            at += m.byteSize();
        }
        List<java.util.concurrent.CompletableFuture<Status>> sent = new ArrayList<>();
        for (int dest : dests) {
            at = 0;
            for (Object a : arrays) {
                long size = OutOfBand.segment(a).byteSize();
                for (long c = 0; c < size; c += CHUNK) {
                    long n = Math.min(CHUNK, size - c);
                    sent.add(comm.isend(copy.asSlice(at + c, n), 0L, n, Datatype.BYTE, dest, tag).toFuture());
                }
                at += size;
            }
        }
        java.util.concurrent.CompletableFuture.allOf(sent.toArray(new java.util.concurrent.CompletableFuture<?>[0]))
                .whenComplete((done, failed) -> arena.close());
    }

    /** The reader's side: receives each array left out, from one source and tag, when its place comes. */
    public static final class Receiver implements OutOfBand.Receiver, AutoCloseable {
        private final Comm comm;
        private final int source;
        private final int tag;
        private Staging staging;
        private long bytes;

        public Receiver(Comm comm, int source, int tag) {
            this.comm = comm;
            this.source = source;
            this.tag = tag;
        }

        @Override
        public void receive(Object array) {
            if (staging == null) {
                staging = new Staging();
            }
            bytes += staging.recv(comm, OutOfBand.segment(array), source, tag);
        }

        /** The bytes of the arrays received so far. */
        public long bytes() {
            return bytes;
        }

        @Override
        public void close() {
            if (staging != null) {
                staging.close();
            }
        }
    }

    /** Two off-heap chunks. */
    private static final class Staging implements AutoCloseable {
        private final Arena arena = Arena.ofShared(); // a progress pass in another thread may copy from it
        private final MemorySegment[] chunk = {arena.allocate(CHUNK, 4096), arena.allocate(CHUNK, 4096)};
        private final Request[] inFlight = new Request[2];

        void send(Comm comm, MemorySegment array, int dest, int tag) {
            long size = array.byteSize();
            for (long at = 0, k = 0; at < size; at += CHUNK, k++) {
                int i = (int) (k & 1);
                if (inFlight[i] != null) {
                    inFlight[i].await();
                }
                long n = Math.min(CHUNK, size - at);
                MemorySegment.copy(array, at, chunk[i], 0, n);
                inFlight[i] = comm.isend(chunk[i], 0L, n, Datatype.BYTE, dest, tag);
            }
            settle();
        }

        /** Receives {@code array}'s chunks from {@code source}; the bytes received. */
        long recv(Comm comm, MemorySegment array, int source, int tag) {
            long size = array.byteSize();
            long chunks = (size + CHUNK - 1) / CHUNK;
            for (long k = 0; k < Math.min(2, chunks); k++) {
                inFlight[(int) k] = comm.irecv(chunk[(int) k], 0L, Math.min(CHUNK, size - k * CHUNK), Datatype.BYTE, source, tag);
            }
            long got = 0;
            for (long k = 0; k < chunks; k++) {
                int i = (int) (k & 1);
                Status s = inFlight[i].await();
                inFlight[i] = null;
                MemorySegment.copy(chunk[i], 0, array, k * CHUNK, s.bytes());
                got += s.bytes();
                if (k + 2 < chunks) {
                    long at = (k + 2) * CHUNK;
                    inFlight[i] = comm.irecv(chunk[i], 0L, Math.min(CHUNK, size - at), Datatype.BYTE, source, tag);
                }
            }
            return got;
        }

        private void settle() {
            for (int i = 0; i < 2; i++) {
                if (inFlight[i] != null) {
                    inFlight[i].await();
                    inFlight[i] = null;
                }
            }
        }

        @Override
        public void close() {
            settle();
            arena.close();
        }
    }
}
