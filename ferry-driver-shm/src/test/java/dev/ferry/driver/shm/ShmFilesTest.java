package dev.ferry.driver.shm;

import dev.ferry.spi.DriverContext;
import dev.ferry.spi.Hints;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What anybody on the machine may leave in /dev/shm under a Ferry name (a FIFO, a symbolic link, a
 * file with other permissions) is never opened for use, never blocks a context's start, and is
 * never removed; a file of ours is reclaimed only when its owner is provably gone.
 */
class ShmFilesTest {
    private final String tag = "ferry-filestest" + ProcessHandle.current().pid();
    private final List<Path> made = new ArrayList<>();

    @AfterEach
    void removeWhatWasMade() throws IOException {
        for (Path p : made) {
            Files.deleteIfExists(p);
        }
    }

    private Path name(String suffix) {
        Path p = ShmFiles.DIR.resolve(tag + "-" + suffix);
        made.add(p);
        return p;
    }

    /** A ready header of {@code kind}, recorded as owned by ({@code pid}, {@code start}). */
    private static byte[] header(long pid, long start) {
        MemorySegment m = Arena.ofAuto().allocate(ShmLayout.HEADER_BYTES);
        ShmFiles.writeHeader(m, ShmLayout.KIND_CONTEXT, pid, start);
        ShmFiles.markReady(m);
        return m.toArray(ValueLayout.JAVA_BYTE);
    }

    private static Path write(Path p, byte[] bytes, String mode) throws IOException {
        Files.write(p, bytes);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
        return p;
    }

    /** A process that has ended: its pid and its start time while it ran. */
    private static long[] deadProcess() throws Exception {
        Process p = new ProcessBuilder("sleep", "60").start();
        long start = ShmFiles.startTime(p.pid());
        assertTrue(start > 0, "start time of a live process");
        p.destroyForcibly();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        return new long[] {p.pid(), start};
    }

    private static void mkfifo(Path p) throws Exception {
        Process mk = new ProcessBuilder("mkfifo", "-m", "600", p.toString()).inheritIO().start();
        assertTrue(mk.waitFor(10, TimeUnit.SECONDS) && mk.exitValue() == 0, "mkfifo " + p);
    }

    @Test
    void aFifoUnderAFerryNameNeitherBlocksAStartNorIsOpened() throws Exception {
        Path fifo = name("x.ctx");
        mkfifo(fifo);
        // Before: reclaim opened it for reading and blocked forever waiting for a writer.
        DriverContext ctx = new ShmDriver().newContext(new Hints(1, 0, true, java.util.Map.of(Hints.JOB_ID, tag)));
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                ctx.properties();
                ctx.init();
            }, "a context's start blocked on a FIFO in /dev/shm");
        } finally {
            ctx.close();
        }
        IOException e = assertThrows(IOException.class, () -> ShmFiles.open(fifo, Arena.ofAuto()));
        assertTrue(e.getMessage().contains("is not a regular file"), e.getMessage());
        assertTrue(Files.exists(fifo), "somebody else's FIFO was removed");
    }

    @Test
    void aSymbolicLinkIsNeitherFollowedNorReclaimed() throws Exception {
        long[] dead = deadProcess();
        Path target = write(name("target.bin"), header(dead[0], dead[1]), "rw-------");
        Path link = name("link.ctx");
        Files.createSymbolicLink(link, target);
        IOException e = assertThrows(IOException.class, () -> ShmFiles.open(link, Arena.ofAuto()));
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
        ShmFiles.reclaim();
        assertTrue(Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS), "the link was removed");
        assertTrue(Files.exists(target), "the link's target was removed");
    }

    @Test
    void aFileWithOtherPermissionsIsNotTrusted() throws Exception {
        long[] dead = deadProcess();
        Path open = write(name("wide.ctx"), header(dead[0], dead[1]), "rw-r--r--");
        IOException e = assertThrows(IOException.class, () -> ShmFiles.open(open, Arena.ofAuto()));
        assertTrue(e.getMessage().contains("has mode 0644, not 0600"), e.getMessage());
        ShmFiles.reclaim();
        assertTrue(Files.exists(open), "a file this driver would not have made was removed");
    }

    @Test
    void onlyFilesWhoseOwnersAreProvablyGoneAreReclaimed() throws Exception {
        long[] dead = deadProcess();
        long me = ProcessHandle.current().pid();
        Path orphan = write(name("orphan.ctx"), header(dead[0], dead[1]), "rw-------");
        Path mine = write(name("mine.ctx"), header(me, ShmFiles.startTime(me)), "rw-------");
        Path garbled = write(name("garbled.ctx"), header(0, 0), "rw-------");
        ShmFiles.reclaim();
        assertFalse(Files.exists(orphan), "a file of a dead process is left");
        assertTrue(Files.exists(mine), "a file of a live process was removed");
        assertTrue(Files.exists(garbled), "a file whose owner cannot be told was removed");
    }

    @Test
    void provablyGoneNeedsProof() throws Exception {
        long me = ProcessHandle.current().pid();
        long[] dead = deadProcess();
        assertTrue(ShmFiles.provablyGone(dead[0], dead[1]));
        assertFalse(ShmFiles.provablyGone(me, ShmFiles.startTime(me)));
        assertTrue(ShmFiles.provablyGone(me, ShmFiles.startTime(me) + 1), "a reused pid");
        assertFalse(ShmFiles.provablyGone(0, 0));
        assertFalse(ShmFiles.provablyGone(-5, 1));
    }

    @Test
    void aMissingFileIsNullAndAFileOfOursOpens() throws Exception {
        assertNull(ShmFiles.open(name("absent.ctx"), Arena.ofAuto()));
        Path ours = write(name("ours.ctx"), header(1, 1), "rw-------");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = ShmFiles.open(ours, a);
            assertEquals(ShmLayout.HEADER_BYTES, m.byteSize());
            assertEquals(ShmLayout.MAGIC, m.get(ValueLayout.JAVA_LONG, ShmLayout.MAGIC_OFFSET));
        }
    }
}
