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
 * made out of band, never by a rank of a user's job: after a successful job, when there is none
 * yet (the launcher for a job on this host, each host's proxy for a job across hosts), a training
 * job of two ranks runs the path every rank takes, and a cache one of them wrote
 * into a temporary file is renamed into place only when complete. So a cache can neither fail a job nor be mapped half-written. Only
 * class paths of jar files qualify (the JVM caches no directories). The {@link #KEEP} caches
 * used last are kept, the others removed when a new one is made. {@code FERRY_CDS=off} turns it
 * off.
 */
public final class AotCache {
    private static final System.Logger LOG = System.getLogger(AotCache.class.getName());
    /** Where the caches are, under the home directory (bin/ferry looks there too). */
    private static final String DIR_UNDER_HOME = ".cache/ferry/cds";
    private final Path archive;
    private final boolean enabled;

    private AotCache(Path archive, boolean enabled) {
        this.archive = archive;
        this.enabled = enabled;
    }

    /**
     * The cache for ranks started with {@code javaArgs} (their {@code -cp} is {@code classPath}), or
     * a disabled one when off, impossible, or when the ranks' own options already name a cache or
     * an archive (a user's, or a training run's).
     */
    static AotCache forRanks(List<String> javaArgs, String classPath) {
        if (!on() || javaArgs.stream().anyMatch(AotCache::namesACache)) {
            return new AotCache(null, false);
        }
        try {
            for (String entry : classPath.split(File.pathSeparator)) {
                if (!entry.endsWith(".jar") || !Files.isRegularFile(Path.of(entry))) {
                    return new AotCache(null, false); // directories cannot be archived
                }
            }
            Path dir = Path.of(System.getProperty("user.home"), DIR_UNDER_HOME);
            Files.createDirectories(dir);
            return new AotCache(dir.resolve(key(classPath) + ".aot"), true);
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "no ahead-of-time cache for the ranks: {0}", e.toString());
            return new AotCache(null, false);
        }
    }

    /**
     * A cache's name for ranks of {@code classPath}: a hash of the JDK (its java executable and
     * version) and every class path entry with its size and time, what the JVM checks before it
     * maps a cache, so a cache the jars outgrew is never looked for again.
     */
    static String key(String classPath) throws IOException {
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
            return HexFormat.of().formatHex(md.digest(), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Names the cache also by its class path alone ({@code cp-HASH.aot}, a symbolic link), so that
     * {@code bin/ferry exec}, whose JVM has the ranks' class path, finds it without Java: a shell
     * hashes the class path with {@code sha256sum}. A link to a cache the jars outgrew is harmless:
     * the JVM checks the class path's jars and runs without it.
     */
    private void linkByClassPath(String classPath) throws IOException {
        Path link = Path.of(System.getProperty("user.home")).resolve(linkUnderHome(classPath));
        Path fresh = link.resolveSibling(link.getFileName() + "." + ProcessHandle.current().pid() + ".link");
        Files.deleteIfExists(fresh);
        Files.createSymbolicLink(fresh, archive.getFileName());
        Files.move(fresh, link, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * The name of the link to the cache of JVMs with {@code classPath}, relative to the home
     * directory ({@code .cache/ferry/cds/cp-HASH.aot}): what a proxy started on another host is
     * given, to be found under that host's home. A JVM told a cache that is not there, or does
     * not fit, runs without it (its aot and cds logs off).
     */
    public static String linkUnderHome(String classPath) {
        try {
            String key = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(classPath.getBytes(StandardCharsets.UTF_8)), 0, 12);
            return DIR_UNDER_HOME + "/cp-" + key + ".aot";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean namesACache(String jvmOption) {
        return jvmOption.startsWith("-XX:AOT") || jvmOption.startsWith("-XX:SharedArchiveFile") || jvmOption.startsWith("-Xshare")
                || jvmOption.startsWith("-XX:ArchiveClassesAtExit");
    }

    /**
     * Makes this machine's cache for ranks of {@code classPath} when there is none (the training
     * job; {@code ferry cache}, for machines where only other launchers start ranks); one line
     * saying what was done.
     */
    public static String make(String classPath) {
        if (!on()) {
            return "off (FERRY_CDS=off): no cache made";
        }
        AotCache c = forRanks(List.of(), classPath);
        if (!c.enabled) {
            return "no cache for this class path: the JVM caches jar files only, and it holds a directory or a missing file";
        }
        if (Files.exists(c.archive)) {
            return "there is one already: " + c.archive;
        }
        c.train(classPath);
        return Files.exists(c.archive) ? "made " + c.archive + " (" + linkUnderHome(classPath) + " under the home directory names it)"
                : "the training job did not make one (run 'ferry run -n 2 --example hello' to see why)";
    }

    /** Whether there is none yet where there could be one. */
    boolean wanted() {
        return enabled && !Files.exists(archive);
    }

    /**
     * JVM options for the ranks: map the cache when there is one (quietly: a rank whose options do
     * not fit it runs without). Its time is set to now: the caches used last are those kept
     * ({@link #prune}).
     */
    List<String> jvmOptions() {
        if (!enabled || !Files.isRegularFile(archive)) {
            return List.of();
        }
        try {
            Files.setLastModifiedTime(archive, java.nio.file.attribute.FileTime.from(java.time.Instant.now()));
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "ahead-of-time cache {0} not marked used: {1}", archive, e.toString());
        }
        return jvmOptions(archive.toString());
    }

    /**
     * Caches kept in one directory: those used last. Each jar of a class path that changes (a
     * rebuilt application or Ferry) makes a new cache of some 20 MB; one removed is made again
     * after its class path's next job.
     */
    static final int KEEP = 16;

    /**
     * Removes all but the {@code keep} caches of {@code dir} used last (by their time, which each
     * job that maps one sets), and the links to caches no longer there.
     */
    static void prune(Path dir, int keep) throws IOException {
        List<Path> caches;
        try (var all = Files.list(dir)) {
            caches = all.filter(p -> p.getFileName().toString().endsWith(".aot") && Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    .sorted(java.util.Comparator.comparing(AotCache::lastUse).reversed()).toList();
        }
        for (Path p : caches.subList(Math.min(keep, caches.size()), caches.size())) {
            Files.deleteIfExists(p);
        }
        try (var all = Files.list(dir)) {
            for (Path link : all.filter(Files::isSymbolicLink).toList()) {
                if (!Files.exists(link)) {
                    Files.deleteIfExists(link);
                }
            }
        }
    }

    private static java.nio.file.attribute.FileTime lastUse(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            return java.nio.file.attribute.FileTime.fromMillis(0);
        }
    }

    /** Whether caches are used at all ({@code FERRY_CDS}, on unless off). */
    public static boolean on() {
        return !dev.ferry.spi.Settings.fromEnvironment().value(dev.ferry.launch.LaunchSettings.CDS).equalsIgnoreCase("off");
    }

    /** The options that map the cache an {@code -XX:AOTCache=} among {@code jvmArgs} names (for another JVM of that class path); none when none does. */
    public static List<String> optionsOfCacheIn(List<String> jvmArgs) {
        for (String a : jvmArgs) {
            if (a.startsWith("-XX:AOTCache=")) {
                return jvmOptions(a.substring("-XX:AOTCache=".length()));
            }
        }
        return List.of();
    }

    /** The JVM options that map the cache at {@code path}, quietly (a JVM it does not fit, or that finds none, runs without). */
    public static List<String> jvmOptions(String path) {
        return List.of("-XX:AOTCache=" + path, "-Xlog:aot=off", "-Xlog:cds=off");
    }

    /**
     * After a successful job with no cache yet: runs a training job of two ranks on this host (the
     * bootstrap exchange over PMI, shm between them, the goodbyes: the path every rank takes),
     * each rank writing a cache at its exit, and keeps one. Bounded; whatever happens here changes
     * nothing else.
     */
    void train(String classPath) {
        if (!enabled || Files.exists(archive)) {
            return;
        }
        String prefix = archive.getFileName() + "." + ProcessHandle.current().pid() + "-";
        Path output = archive.resolveSibling(prefix + "%p.tmp"); // %p: each rank's pid (JEP 514)
        List<String> args = List.of("-XX:AOTCacheOutput=" + output, "-Xlog:aot=off", "-Xlog:cds=off",
                "--enable-native-access=ALL-UNNAMED", "-cp", classPath, "dev.ferry.examples.Examples", "hello");
        JobSpec spec = new JobSpec(2, args, java.util.Map.of("FERRY_TCP_INTERFACES", "lo"), false,
                java.time.Duration.ofSeconds(60), java.time.Duration.ofSeconds(5));
        java.io.PrintStream discard = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
        try {
            if (new Job(spec, discard, discard).run() == 0) {
                try (var made = Files.list(archive.getParent())) {
                    Path first = made.filter(p -> p.getFileName().toString().startsWith(prefix) && p.toString().endsWith(".tmp"))
                            .findFirst().orElse(null);
                    if (first != null && !Files.exists(archive)) {
                        Files.move(first, archive, StandardCopyOption.ATOMIC_MOVE);
                        linkByClassPath(classPath);
                        try {
                            prune(archive.getParent(), KEEP);
                        } catch (IOException e) { // the cache is made: only older ones stay
                            LOG.log(System.Logger.Level.DEBUG, "older ahead-of-time caches not removed: {0}", e.toString());
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "no ahead-of-time cache made: {0}", e.toString());
        } finally {
            try (var left = Files.list(archive.getParent())) {
                for (Path p : left.filter(p -> p.getFileName().toString().startsWith(prefix)).toList()) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException ignored) {
                // best effort
            }
        }
    }
}
