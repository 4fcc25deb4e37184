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
 *   queue     ferry-JOB-rRANK-pPID-cSEQ.srq    (the context's shared receive queue)
 *   channel   ferry-JOB-KEYLOW-KEYHIGH-gN.chan  (KEY = rRANK-pPID-cSEQ of each end; N counts
 *                                               the two contexts' connections, from 0)
 * </pre>
 */
final class ShmFiles {
    private static final System.Logger LOG = dev.ferry.spi.LazyLogger.of(ShmFiles.class);
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

    /**
     * Maps an existing file whole; null when it does not exist (yet). Only a file this driver could
     * have made is opened: {@link #openOwn}.
     */
    static MemorySegment open(Path file, Arena arena) throws IOException {
        try (FileChannel ch = openOwn(file, true)) {
            return ch == null ? null : ch.map(FileChannel.MapMode.READ_WRITE, 0, ch.size(), arena);
        }
    }

    /**
     * Opens a file of /dev/shm only if it is what this driver makes: a regular file owned by this
     * user with mode 0600. /dev/shm is world-writable, so anybody may have put a FIFO (whose open
     * would block), a symbolic link (to a file of this user's) or a file of their own under a
     * Ferry name. The name is opened without following a link and without blocking, the open file
     * itself is checked, and only then opened for use (through /proc/self/fd: the same inode).
     *
     * @return the channel, or null when no such file exists
     * @throws IOException naming what is wrong with the file when it is not to be trusted
     */
    static FileChannel openOwn(Path file, boolean write) throws IOException {
        int fd = Native.openNoFollow(file.toString(), write);
        if (fd < 0) {
            if (-fd == Native.ENOENT) {
                return null;
            }
            throw new IOException(file + (-fd == Native.ELOOP ? " is a symbolic link" : ": open failed with errno " + -fd) + "; not trusted");
        }
        try {
            Path opened = Path.of("/proc/self/fd", Integer.toString(fd));
            String bad = untrusted(Files.readAttributes(opened, "unix:uid,mode"));
            if (bad != null) {
                throw new IOException(file + " " + bad + "; not trusted");
            }
            return write ? FileChannel.open(opened, StandardOpenOption.READ, StandardOpenOption.WRITE)
                    : FileChannel.open(opened, StandardOpenOption.READ);
        } finally {
            Native.close(fd);
        }
    }

    /** Null when attributes {@code unix:uid,mode} are those of a file this driver makes, else what differs. */
    static String untrusted(java.util.Map<String, Object> attrs) {
        int mode = (Integer) attrs.get("mode");
        int uid = (Integer) attrs.get("uid");
        if ((mode & S_IFMT) != S_IFREG) {
            return "is not a regular file (type 0" + Integer.toOctalString(mode & S_IFMT) + ")";
        }
        if (uid != UID) {
            return "is owned by uid " + uid + ", not by this user (" + UID + ")";
        }
        if ((mode & 07777) != 0600) {
            return "has mode 0" + Integer.toOctalString(mode & 07777) + ", not 0600";
        }
        return null;
    }

    private static final int S_IFMT = 0170000, S_IFREG = 0100000;
    /** This process's effective uid: the owner of /proc/self. */
    private static final int UID = uid();

    private static int uid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | UnsupportedOperationException e) {
            return -1; // no file is then trusted
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
            return readStartTime(pid);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static long readStartTime(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(after[19]); // field 22 counted from 1; after the comm, field 3 is index 0
    }

    /** Alive and the same process as when recorded (not a reused pid). */
    static boolean processAlive(long pid, long start) {
        return pid > 0 && startTime(pid) == start;
    }

    /**
     * Whether the process recorded as ({@code pid}, {@code start}) is provably gone: /proc shows no
     * such pid, or a process of that pid that started at another time (the pid was reused). When
     * /proc cannot tell (not mounted, not readable, a garbled record), it is not.
     */
    static boolean provablyGone(long pid, long start) {
        if (pid <= 0 || pid > Integer.MAX_VALUE || start < 0 || !Files.isReadable(Path.of("/proc/self/stat"))) {
            return false;
        }
        try {
            return readStartTime(pid) != start;
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
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
     * Removes every Ferry file in /dev/shm whose owners are all provably gone: what crashed
     * processes left behind. Files being created (not ready yet), files of live processes, and
     * files this driver would not open ({@link #openOwn}: not regular, not this user's, not 0600)
     * are left alone.
     *
     * @return how many files were removed
     */
    static int reclaim() {
        int removed = 0;
        if (!Files.isDirectory(DIR)) {
            return 0;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(DIR, "ferry-*.{ctx,chan,arena,srq}")) {
            ByteBuffer h = ByteBuffer.allocate((int) ShmLayout.HEADER_BYTES).order(ByteOrder.nativeOrder());
            for (Path f : s) {
                h.clear();
                try (FileChannel ch = openOwn(f, false)) {
                    if (ch == null || ch.read(h, 0) < ShmLayout.HEADER_BYTES) {
                        continue;
                    }
                } catch (IOException e) {
                    LOG.log(System.Logger.Level.DEBUG, "shm: left alone: {0}", e.getMessage());
                    continue; // gone meanwhile, or not ours to trust
                }
                if (h.getLong((int) ShmLayout.MAGIC_OFFSET) != ShmLayout.MAGIC || h.getInt((int) ShmLayout.READY_OFFSET) != 1) {
                    continue;
                }
                long pid1 = h.getLong((int) ShmLayout.OWNER_PID_OFFSET);
                long start1 = h.getLong((int) ShmLayout.OWNER_START_OFFSET);
                long pid2 = h.getLong((int) ShmLayout.OWNER2_PID_OFFSET);
                long start2 = h.getLong((int) ShmLayout.OWNER2_START_OFFSET);
                boolean allGone = provablyGone(pid1, start1) && (pid2 == 0 || provablyGone(pid2, start2));
                if (allGone) {
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
