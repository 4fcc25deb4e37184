package dev.ferry.driver.ucx;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JucxCopiesTest {
    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

    /** This very JVM loaded JUCX: its library is mapped, and the copy it was loaded from is gone. */
    @Test
    void theLoadedCopyIsRemovedOnceLoaded() throws IOException {
        assertNull(UcxLibrary.problem(), "UCX must be usable on this machine (CI installs libucx0)");
        List<String> jucx = Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(l -> l.contains(JucxCopies.LIBRARY)).toList();
        // JUCX loads the library from its jar through a copy in the temporary directory
        assertFalse(jucx.isEmpty(), "libjucx.so is not mapped in this process");
        for (String line : jucx) {
            assertTrue(line.contains(JucxCopies.tmpDir().toString() + "/jucx"), "not JUCX's extraction: " + line);
            assertTrue(line.endsWith(" (deleted)"), "the extracted copy is still there: " + line);
        }
    }

    @Test
    void removesTheMappedCopyAndItsDirectoryButNothingElse(@TempDir Path tmp, @TempDir Path elsewhere) throws IOException {
        Path copy = library(tmp.resolve("jucx4242"));
        Path other = library(elsewhere.resolve("jucx77"));
        Path notOurs = Files.createDirectories(tmp.resolve("jucxdir")).resolve(JucxCopies.LIBRARY);
        Files.write(notOurs, new byte[8]);
        List<String> maps = List.of(
                "7f00-7f10 r--p 00000000 fd:01 1 " + copy,
                "7f10-7f20 r-xp 00001000 fd:01 1 " + copy,
                "7f20-7f30 r--p 00000000 fd:01 2 " + other,
                "7f30-7f40 r--p 00000000 fd:01 3 " + notOurs,
                "7f40-7f50 r--p 00000000 fd:01 4 " + tmp.resolve("jucx1").resolve(JucxCopies.LIBRARY) + " (deleted)",
                "7f50-7f60 rw-p 00000000 00:00 0 ",
                "7ffd-7ffe rw-p 00000000 00:00 0                          [stack]");
        assertEquals(1, JucxCopies.removeLoaded(maps, tmp));
        assertFalse(Files.exists(copy.getParent()));
        assertTrue(Files.exists(other), "a copy outside the temporary directory is not JUCX's extraction");
        assertTrue(Files.exists(notOurs), "a directory not named as JUCX names its own is left alone");
    }

    @Test
    void sweepsOnlyOldDirectoriesHoldingNothingButTheLibrary(@TempDir Path tmp) throws IOException {
        Path old = library(tmp.resolve("jucx100"));
        age(old.getParent(), Duration.ofHours(2));
        Path fresh = library(tmp.resolve("jucx200"));
        age(fresh.getParent(), Duration.ofMinutes(5));
        Path crowded = library(tmp.resolve("jucx300"));
        Files.write(crowded.resolveSibling("notes.txt"), new byte[1]);
        age(crowded.getParent(), Duration.ofHours(2));
        Path named = library(tmp.resolve("jucx-custom"));
        age(named.getParent(), Duration.ofHours(2));
        Path link = Files.createSymbolicLink(tmp.resolve("jucx400"), old.getParent());

        assertEquals(1, JucxCopies.sweepStale(tmp, JucxCopies.STALE, NOW));
        assertFalse(Files.exists(old.getParent()));
        assertTrue(Files.exists(fresh), "a copy younger than an hour may be about to load");
        assertTrue(Files.exists(crowded), "a directory holding anything else is not a JUCX copy");
        assertTrue(Files.exists(named));
        assertTrue(Files.isSymbolicLink(link), "a link is never followed or removed");
        assertEquals(0, JucxCopies.sweepStale(tmp, JucxCopies.STALE, NOW), "a second sweep finds nothing");
    }

    private static Path library(Path dir) throws IOException {
        Files.createDirectories(dir);
        return Files.write(dir.resolve(JucxCopies.LIBRARY), new byte[64]);
    }

    /** Sets the directory's change time {@code age} before {@link #NOW}, as its creation would have. */
    private static void age(Path dir, Duration age) throws IOException {
        Files.setLastModifiedTime(dir, FileTime.from(NOW.minus(age)));
    }
}
