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
 * The JDK's ahead-of-time cache (JEP 483, made in one step as JEP 514 allows, with the method
 * profiles of JEP 515) for the ranks of a job: the JVM maps Ferry's classes loaded and linked, and
 * starts with profiles from a training run, instead of loading, verifying and profiling them in
 * every rank, which shortens wire-up when many ranks start on few cores.
 *
 * <p>One cache per JDK and class path (a hash of the java executable, its version, and every
 * class path entry with its size and time) under {@code ~/.cache/ferry/cds}. Once it exists,
 * every rank maps it read-only (a JVM that finds it does not match just runs without it). It is
 * made out of band, never by a rank: after a successful job, when there is none yet, one training
 * JVM runs the bootstrap path alone and writes into a temporary file that is renamed into place
 * only when complete. So a cache can neither fail a job nor be mapped half-written. Only
 * class paths of jar files qualify (the JVM caches no directories). {@code FERRY_CDS=off}
 * turns it off.
 */
final class AotCache {
    private static final System.Logger LOG = System.getLogger(AotCache.class.getName());
    private final Path archive;
    private final Path pending;
    private final boolean enabled;

    private AotCache(Path archive, boolean enabled) {
        this.archive = archive;
        this.pending = archive == null ? null : archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        this.enabled = enabled;
    }

    /** The archive for ranks started with {@code classPath}, or a disabled one when off or impossible. */
    static AotCache forClassPath(String classPath) {
        String setting = dev.ferry.spi.Settings.fromEnvironment().value(dev.ferry.launch.LaunchSettings.CDS);
        if (setting.equalsIgnoreCase("off")) {
            return new AotCache(null, false);
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
            for (String entry : classPath.split(File.pathSeparator)) {
                if (!entry.endsWith(".jar") || !Files.isRegularFile(Path.of(entry))) {
                    return new AotCache(null, false); // directories cannot be archived
                }
            }
            String home = System.getProperty("user.home");
            Path dir = Path.of(home, ".cache", "ferry", "cds");
            Files.createDirectories(dir);
            return new AotCache(dir.resolve(HexFormat.of().formatHex(md.digest(), 0, 12) + ".aot"), true);
        } catch (IOException | NoSuchAlgorithmException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "no ahead-of-time cache for the ranks: {0}", e.toString());
            return new AotCache(null, false);
        }
    }

    /** JVM options for the ranks: map the cache when there is one (quietly: a rank whose options do not fit it runs without). */
    List<String> jvmOptions() {
        if (!enabled || !Files.isRegularFile(archive)) {
            return List.of();
        }
        return List.of("-XX:AOTCache=" + archive, "-Xlog:aot=off", "-Xlog:cds=off");
    }

    /**
     * After a successful job with no archive yet: runs the training JVM (the bootstrap path as a
     * job of one) and keeps what it dumped. Bounded; whatever happens here changes nothing else.
     */
    void train(String classPath) {
        if (!enabled || Files.exists(archive)) {
            return;
        }
        List<String> cmd = List.of(ChildJvm.javaExecutable().toString(), "-XX:AOTCacheOutput=" + pending,
                "-Xlog:aot=off", "-Xlog:cds=off", "--enable-native-access=ALL-UNNAMED",
                "-cp", classPath, "dev.ferry.examples.Examples", "wireup");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            pb.environment().keySet().removeIf(k -> k.startsWith("PMI_") || k.startsWith("FERRY_JOB"));
            pb.environment().put("FERRY_TCP_INTERFACES", "lo");
            Process p = pb.start();
            if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) { // the run, then the assembly in a child JVM
                p.destroyForcibly();
            } else if (p.exitValue() == 0 && Files.isRegularFile(pending) && !Files.exists(archive)) {
                Files.move(pending, archive, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "no ahead-of-time cache made: {0}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                Files.deleteIfExists(pending);
            } catch (IOException ignored) {
                // best effort
            }
        }
    }
}
