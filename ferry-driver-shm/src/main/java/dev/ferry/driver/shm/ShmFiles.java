package dev.ferry.driver.shm;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The driver's files under /dev/shm: created owner-only (0600), mapped shared, removed on close,
 * and reclaimed when every process that owned one is gone (a crash leaves them behind).
 *
 * <p>Names, all beginning {@code ferry-JOBID-} so that a launcher can remove a job's leftovers:
 * <pre>
 *   context   ferry-JOB-rRANK-pPID-cSEQ.ctx
 *   arena     ferry-JOB-rRANK-pPID-cSEQ-aN.arena
 *   channel   ferry-JOB-KEYLOW-KEYHIGH.chan     (KEY = rRANK-pPID-cSEQ of each end)
 * </pre>
 */
final class ShmFiles {
    private static final System.Logger LOG = System.getLogger(ShmFiles.class.getName());
    static final Path DIR = Path.of("/dev/shm");
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG;

    private ShmFiles() {
    }

    /** Creates {@code name} (0600) of {@code size} bytes and maps it. Fails if it exists. */
    static MemorySegment create(Path file, long size, Arena arena) throws IOException {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(size); // sparse on tmpfs: pages exist once touched
            return raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /** Maps an existing file whole; null when it does not exist (yet). */
    static MemorySegment open(Path file, Arena arena) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, ch.size(), arena);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "shm: cannot remove {0}: {1}", file, e.getMessage());
        }
    }

    /** Clock ticks since boot at which {@code pid} started (/proc/PID/stat field 22), or -1 when it does not exist. */
    static long startTime(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(after[19]); // field 22 counted from 1; after the comm, field 3 is index 0
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Alive and the same process as when recorded (not a reused pid). */
    static boolean processAlive(long pid, long start) {
        return pid > 0 && startTime(pid) == start;
    }

    /** Writes the common header; {@code ready} last. */
    static void writeHeader(MemorySegment m, int kind, long pid, long start) {
        m.set(U64, ShmLayout.MAGIC_OFFSET, ShmLayout.MAGIC);
        m.set(ValueLayout.JAVA_INT, ShmLayout.VERSION_OFFSET, ShmLayout.VERSION);
        m.set(ValueLayout.JAVA_INT, ShmLayout.KIND_OFFSET, kind);
        m.set(U64, ShmLayout.OWNER_PID_OFFSET, pid);
        m.set(U64, ShmLayout.OWNER_START_OFFSET, start);
    }

    static void markReady(MemorySegment m) {
        ValueLayout.JAVA_INT.varHandle().setRelease(m, ShmLayout.READY_OFFSET, 1);
    }

    static boolean isReady(MemorySegment m) {
        return (int) ValueLayout.JAVA_INT.varHandle().getAcquire(m, ShmLayout.READY_OFFSET) == 1;
    }

    /** Null when {@code m} is a ready Ferry file of {@code kind}, else what is wrong with it. */
    static String check(MemorySegment m, int kind, Path file) {
        if (m.byteSize() < ShmLayout.HEADER_BYTES) {
            return file + " is " + m.byteSize() + " bytes, too short for a Ferry shm segment";
        }
        long magic = m.get(U64, ShmLayout.MAGIC_OFFSET);
        if (magic != ShmLayout.MAGIC) {
            return file + " has magic 0x" + Long.toHexString(magic) + ", not a Ferry shm segment";
        }
        int version = m.get(ValueLayout.JAVA_INT, ShmLayout.VERSION_OFFSET);
        if (version != ShmLayout.VERSION) {
            return file + " is a Ferry shm segment of layout version " + version + "; this driver speaks version " + ShmLayout.VERSION;
        }
        int k = m.get(ValueLayout.JAVA_INT, ShmLayout.KIND_OFFSET);
        if (k != kind) {
            return file + " is a Ferry shm segment of kind " + k + ", expected " + kind;
        }
        return null;
    }

    /**
     * Removes every Ferry file in /dev/shm whose owners are all gone: what crashed processes left
     * behind. Files being created (not ready yet) and files of live processes are left alone.
     *
     * @return how many files were removed
     */
    static int reclaim() {
        int removed = 0;
        if (!Files.isDirectory(DIR)) {
            return 0;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(DIR, "ferry-*.{ctx,chan,arena}")) {
            ByteBuffer h = ByteBuffer.allocate((int) ShmLayout.HEADER_BYTES).order(ByteOrder.nativeOrder());
            for (Path f : s) {
                h.clear();
                try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
                    if (ch.read(h, 0) < ShmLayout.HEADER_BYTES) {
                        continue;
                    }
                } catch (IOException e) {
                    continue; // gone meanwhile, or not ours to read
                }
                if (h.getLong((int) ShmLayout.MAGIC_OFFSET) != ShmLayout.MAGIC || h.getInt((int) ShmLayout.READY_OFFSET) != 1) {
                    continue;
                }
                long pid1 = h.getLong((int) ShmLayout.OWNER_PID_OFFSET);
                long start1 = h.getLong((int) ShmLayout.OWNER_START_OFFSET);
                long pid2 = h.getLong((int) ShmLayout.OWNER2_PID_OFFSET);
                long start2 = h.getLong((int) ShmLayout.OWNER2_START_OFFSET);
                boolean anyAlive = processAlive(pid1, start1) || (pid2 != 0 && processAlive(pid2, start2));
                if (!anyAlive) {
                    try {
                        if (Files.deleteIfExists(f)) {
                            removed++;
                            LOG.log(System.Logger.Level.DEBUG, "shm: reclaimed {0}, left by process {1}", f, pid1);
                        }
                    } catch (IOException e) {
                        LOG.log(System.Logger.Level.WARNING, "shm: cannot reclaim {0}: {1}", f, e.getMessage());
                    }
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "shm: cannot scan {0}: {1}", DIR, e.getMessage());
        }
        return removed;
    }

    /** Creates a file that must not exist; an existing one is a leftover of a dead process with the same pid. */
    static MemorySegment createFresh(Path file, long size, Arena arena) throws IOException {
        try {
            return create(file, size, arena);
        } catch (FileAlreadyExistsException e) {
            Files.deleteIfExists(file);
            return create(file, size, arena);
        }
    }
}
