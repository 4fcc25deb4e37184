package dev.ferry.driver.ucx;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Removes the copies of {@code libjucx.so} that JUCX extracts from its jar. JUCX 1.12 copies the
 * library into a new {@code jucxNNNN} directory under {@code java.io.tmpdir} in every process that
 * loads it and asks for deletion only at a normal JVM exit; a process that is killed, as a dead
 * peer is in Ferry's failure tests and as a launcher's ranks may be, leaves its 0.5 MB behind, and
 * every process of every job loads it (driver discovery asks UCX for its version). Once loaded,
 * the library is mapped, and Linux keeps a mapped file's pages after its name is removed, so the
 * copy can go at once: {@link #removeLoaded} deletes this process's own. {@link #sweepStale}
 * removes the copies earlier processes left, when they are old enough that no process can still
 * be between JUCX's extraction and its {@code System.load} (milliseconds apart).
 *
 * <pre>{@code
 * org.openucx.jucx.NativeLibs.load();
 * JucxCopies.removeLoaded(JucxCopies.mappedFiles(), JucxCopies.tmpDir());
 * JucxCopies.sweepStale(JucxCopies.tmpDir(), JucxCopies.STALE, Instant.now());
 * }</pre>
 */
final class JucxCopies {
    private static final System.Logger LOG = dev.ferry.spi.LazyLogger.of(JucxCopies.class);
    /** The file JUCX extracts. */
    static final String LIBRARY = "libjucx.so";
    /** The directories it extracts into: {@code Files.createTempDirectory("jucx")}. */
    private static final Pattern DIR = Pattern.compile("jucx\\d+");
    /** Age past which a left copy is certainly loaded already (or never will be). */
    static final Duration STALE = Duration.ofHours(1);

    private JucxCopies() {
    }

    static Path tmpDir() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** The files this process maps, from {@code /proc/self/maps} (empty where there is none). */
    static List<String> mappedFiles() {
        try {
            return Files.readAllLines(Path.of("/proc/self/maps"));
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * Deletes the JUCX copies named in {@code maps} (lines of {@code /proc/self/maps}) that lie in
     * a {@code jucxNNNN} directory of {@code tmp}, and the directory once empty; returns how many
     * copies it deleted. Any other mapped file is left alone.
     */
    static int removeLoaded(List<String> maps, Path tmp) {
        Set<Path> copies = new LinkedHashSet<>();
        for (String line : maps) {
            int slash = line.indexOf('/');
            if (slash < 0 || !line.endsWith("/" + LIBRARY)) {
                continue; // anonymous, or already deleted (the kernel appends " (deleted)")
            }
            Path p = Path.of(line.substring(slash));
            Path dir = p.getParent();
            if (dir != null && DIR.matcher(dir.getFileName().toString()).matches() && sameDir(dir.getParent(), tmp)) {
                copies.add(p);
            }
        }
        int removed = 0;
        for (Path p : copies) {
            try {
                if (Files.deleteIfExists(p)) {
                    removed++;
                }
                Files.deleteIfExists(p.getParent());
            } catch (IOException e) {
                LOG.log(System.Logger.Level.DEBUG, "ucx: could not remove JUCX's copy {0}: {1}", p, e);
            }
        }
        return removed;
    }

    private static boolean sameDir(Path a, Path b) {
        if (a == null) {
            return false;
        }
        try {
            return Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Deletes the {@code jucxNNNN} directories of {@code tmp} last changed more than {@code age}
     * before {@code now} that are real directories of this user holding nothing but a JUCX copy;
     * returns how many it deleted. Anything else, or anything another process removes first, is
     * left as it is.
     */
    static int sweepStale(Path tmp, Duration age, Instant now) {
        Object me;
        try {
            me = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return 0;
        }
        int removed = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(tmp, "jucx*")) {
            for (Path dir : ds) {
                if (DIR.matcher(dir.getFileName().toString()).matches() && stale(dir, me, age, now)) {
                    try {
                        Files.deleteIfExists(dir.resolve(LIBRARY));
                        Files.delete(dir);
                        removed++;
                    } catch (NoSuchFileException e) {
                        // another process swept it first
                    } catch (IOException e) {
                        LOG.log(System.Logger.Level.DEBUG, "ucx: could not remove a left JUCX copy {0}: {1}", dir, e);
                    }
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "ucx: could not look for left JUCX copies in {0}: {1}", tmp, e);
        }
        return removed;
    }

    private static boolean stale(Path dir, Object owner, Duration age, Instant now) {
        try {
            BasicFileAttributes a = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isDirectory() || !owner.equals(Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS))
                    || !a.lastModifiedTime().toInstant().plus(age).isBefore(now)) {
                return false;
            }
            try (DirectoryStream<Path> in = Files.newDirectoryStream(dir)) {
                for (Path p : in) {
                    if (!p.getFileName().toString().equals(LIBRARY) || !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                        return false;
                    }
                }
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
