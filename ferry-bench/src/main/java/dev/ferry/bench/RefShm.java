package dev.ferry.bench;

import dev.ferry.launch.ChildJvm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The shared-memory reference: what two processes on this machine can do with nothing in between.
 * Latency: two JVMs ping-pong one 8-byte word in one cache line of a shared mapping (writer
 * stores with release, reader spins with acquire). Bandwidth: {@link MemorySegment#copy} between
 * two off-heap buffers of one process, i.e. memcpy.
 */
final class RefShm {
    static final String NAME = "ref-shm";
    /** Layout of the mapping: one 8-byte counter at offset 0; the rest of the page unused. */
    static final long COUNTER_OFFSET = 0;
    static final long MAPPING_SIZE = 4096;
    static final long STOP = -1;
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private RefShm() {
    }

    static MemorySegment map(Path file, Arena arena) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, MAPPING_SIZE, arena);
        }
    }

    static Path newMappingFile() throws IOException {
        Path dir = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") : Path.of(System.getProperty("java.io.tmpdir"));
        Path f = Files.createTempFile(dir, "ferry-ref-shm-", ".map");
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.allocate(1), MAPPING_SIZE - 1);
        }
        return f;
    }

    /** One-way latency of an 8-byte cache-line ping-pong between this JVM and a child. */
    static void latency(BenchOptions o, Progress progress, Consumer<Result> out) throws IOException {
        Path file = newMappingFile();
        try (Arena arena = Arena.ofShared();
             ChildJvm child = ChildJvm.builder(BenchPeer.class.getName()).args("ref-shm", file.toString()).start()) {
            MemorySegment m = map(file, arena);
            String ready = child.readAnswer(DriverPeer.TIMEOUT);
            if (!ready.equals("ready")) {
                throw new IllegalStateException("ref-shm peer said " + ready);
            }
            long iterations = o.iterationsFor(8);
            long[] v = {0};
            o.warmUp(8, () -> v[0] = pingPong(m, v[0]));
            long value = v[0];
            long batch = 16;
            int samples = (int) Math.max(1, iterations / batch);
            double[] oneWayUs = new double[samples];
            for (int s = 0; s < samples; s++) {
                long start = System.nanoTime();
                for (long i = 0; i < batch; i++) {
                    value = pingPong(m, value);
                }
                oneWayUs[s] = (System.nanoTime() - start) / (double) batch / 2 / 1000;
                progress.update(NAME + " latency", s, samples);
            }
            WORD.setRelease(m, COUNTER_OFFSET, STOP);
            child.readAnswer(DriverPeer.TIMEOUT);
            out.accept(new Result(BenchOptions.LATENCY, NAME, 8, samples * batch, Stats.median(oneWayUs),
                    Stats.quantile(oneWayUs, 0.99), null, Map.of()));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Parent's half of one round trip: write an odd value, wait for the child's next even one. */
    private static long pingPong(MemorySegment m, long value) {
        long ping = value + 1;
        WORD.setRelease(m, COUNTER_OFFSET, ping);
        while ((long) WORD.getAcquire(m, COUNTER_OFFSET) != ping + 1) {
            Thread.onSpinWait();
        }
        return ping + 1;
    }

    /** The child's side: answer every odd value with the next even one, until STOP. */
    static void serve(Path file) throws IOException {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment m = map(file, arena);
            ChildJvm.answer("ready");
            long seen = 0;
            while (true) {
                long v = (long) WORD.getAcquire(m, COUNTER_OFFSET);
                if (v == STOP) {
                    break;
                }
                if (v != seen && (v & 1) == 1) {
                    seen = v + 1;
                    WORD.setRelease(m, COUNTER_OFFSET, seen);
                } else {
                    Thread.onSpinWait();
                }
            }
            ChildJvm.answer("done");
        }
    }

    /** memcpy bandwidth for each size, in one process. */
    static void bandwidth(BenchOptions o, List<Long> sizes, Progress progress, Consumer<Result> out) {
        copyBandwidth(NAME, o, sizes, progress, out, (src, dst, size) -> MemorySegment.copy(src, 0, dst, 0, size));
    }

    /** One copy of {@code size} bytes from {@code src} to {@code dst}. */
    interface Copier {
        void copy(MemorySegment src, MemorySegment dst, long size);
    }

    /** The bandwidth of a copy between two off-heap buffers of this process, for each size. */
    static void copyBandwidth(String name, BenchOptions o, List<Long> sizes, Progress progress, Consumer<Result> out, Copier copier) {
        long max = sizes.stream().mapToLong(Long::longValue).max().orElse(1);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(Math.max(1, max), 4096);
            MemorySegment dst = arena.allocate(Math.max(1, max), 4096);
            src.fill((byte) 1);
            dst.fill((byte) 2);
            for (long size : sizes) {
                if (size == 0) {
                    continue;
                }
                long iterations = o.iterationsFor(size);
                long batch = Math.max(1, Math.min(iterations, 65536 / size + 1));
                int samples = (int) Math.max(1, iterations / batch);
                o.warmUp(size, () -> copier.copy(src, dst, size));
                double[] mbps = new double[samples];
                double[] perCopyUs = new double[samples];
                for (int s = 0; s < samples; s++) {
                    long start = System.nanoTime();
                    for (long i = 0; i < batch; i++) {
                        copier.copy(src, dst, size);
                    }
                    long t = System.nanoTime() - start;
                    mbps[s] = (double) batch * size / t * 1000;
                    perCopyUs[s] = t / (double) batch / 1000;
                    progress.update(name + " bandwidth " + size + " B", s, samples);
                }
                out.accept(new Result(BenchOptions.BANDWIDTH, name, size, samples * batch, Stats.median(perCopyUs),
                        Stats.quantile(perCopyUs, 0.99), Stats.median(mbps), Map.of()));
            }
        }
    }
}
