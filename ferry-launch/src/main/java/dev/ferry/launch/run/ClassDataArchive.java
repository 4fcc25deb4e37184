package dev.ferry.launch.run;

import dev.ferry.launch.ChildJvm;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * An application class-data-sharing archive for the ranks of a job: the JVM maps Ferry's classes
 * pre-parsed instead of loading and verifying them in every rank, which shortens wire-up when
 * many ranks start on few cores (16 ranks on 2 cores: about a quarter less).
 *
 * <p>One archive per JDK and class path (a hash of the java executable, its version, and every
 * class path entry with its size and time) under {@code ~/.cache/ferry/cds}. Once it exists,
 * every rank maps it read-only. When it does not, rank 0 alone dumps one at exit into a
 * temporary file, which {@link #adopt} renames into place only after a successful job: no two
 * JVMs ever write the same file, and no rank ever maps a half-written one. {@code FERRY_CDS=off}
 * turns it off.
 */
final class ClassDataArchive {
    private static final System.Logger LOG = System.getLogger(ClassDataArchive.class.getName());
    private final Path archive;
    private final Path pending;
    private final boolean enabled;

    private ClassDataArchive(Path archive, boolean enabled) {
        this.archive = archive;
        this.pending = archive == null ? null : archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        this.enabled = enabled;
    }

    /** The archive for ranks started with {@code classPath}, or a disabled one when off or impossible. */
    static ClassDataArchive forClassPath(String classPath) {
        String setting = System.getenv().getOrDefault("FERRY_CDS", System.getProperty("ferry.cds", "on"));
        if (setting.equalsIgnoreCase("off")) {
            return new ClassDataArchive(null, false);
        }
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(ChildJvm.javaExecutable().toString().getBytes(StandardCharsets.UTF_8));
            md.update(Runtime.version().toString().getBytes(StandardCharsets.UTF_8));
            for (String entry : classPath.split(File.pathSeparator)) {
                Path p = Path.of(entry);
                md.update(entry.getBytes(StandardCharsets.UTF_8));
                if (Files.isRegularFile(p)) {
                    md.update(Long.toString(Files.size(p)).getBytes(StandardCharsets.UTF_8));
                    md.update(Files.getLastModifiedTime(p).toString().getBytes(StandardCharsets.UTF_8));
                }
            }
            String home = System.getProperty("user.home");
            Path dir = Path.of(home, ".cache", "ferry", "cds");
            Files.createDirectories(dir);
            return new ClassDataArchive(dir.resolve(HexFormat.of().formatHex(md.digest(), 0, 12) + ".jsa"), true);
        } catch (IOException | NoSuchAlgorithmException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "no class-data archive for the ranks: {0}", e.toString());
            return new ClassDataArchive(null, false);
        }
    }

    /** JVM options for {@code rank}: map the archive, or (rank 0, no archive yet) dump one. */
    List<String> jvmOptions(int rank) {
        if (!enabled) {
            return List.of();
        }
        if (Files.isRegularFile(archive)) {
            return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
        }
        if (rank == 0) {
            return List.of("-XX:ArchiveClassesAtExit=" + pending, "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
        }
        return List.of();
    }

    /** After the job: keeps a freshly dumped archive if the job succeeded, else drops it. */
    void adopt(boolean succeeded) {
        if (!enabled || pending == null || !Files.exists(pending)) {
            return;
        }
        try {
            if (succeeded && !Files.exists(archive)) {
                Files.move(pending, archive, StandardCopyOption.ATOMIC_MOVE);
            } else {
                Files.deleteIfExists(pending);
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "class-data archive not kept: {0}", e.toString());
            try {
                Files.deleteIfExists(pending);
            } catch (IOException ignored) {
                // best effort
            }
        }
    }
}
