package dev.ferry.launch.run;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.Deflater;

/**
 * The class path of a {@link CapturedJob}'s ranks, made cacheable, and the ahead-of-time cache
 * (JEP 483, 514, 515) they map: most of a short test job's CPU is its JVMs starting, on a machine
 * of few cores. The JVM caches classes from jar files only, and a test's class path holds
 * directories ({@code target/classes}, {@code target/test-classes}): each is packed, once per
 * process, into a jar under {@code ferry-aot} beside it, read-only from then on.
 *
 * <p>The first job on a class path trains the cache: each of its ranks records what it loaded and
 * linked, and when the job ended well, one JVM makes the cache from one rank's record (a few
 * seconds of CPU, once). Every later job's ranks map it. A job that ends otherwise (a test of a
 * failure) may have had a rank killed while recording: the next job trains again, at most
 * {@link #TRAININGS} times.
 * The cache lives in the build's directory, so a clean removes it with the jars it was made of.
 * {@code FERRY_CDS=off} turns it off.
 *
 * <pre>{@code
 * JobClassPath cp = JobClassPath.of(System.getProperty("java.class.path"));
 * List<String> jvm = cp.options(env);        // then "-cp", cp.classPath(), main, args
 * int exit = job.run();
 * cp.ended(jvm, exit, List.of("-XX:+UseSerialGC"));   // the ranks' other JVM options
 * }</pre>
 */
final class JobClassPath {
    private static final System.Logger LOG = System.getLogger(JobClassPath.class.getName());
    /** Jobs that may train before this process gives up on a cache for the class path. */
    static final int TRAININGS = 3;
    /** Per class path as given: packed once per process (the directories do not change under a test run). */
    private static final Map<String, JobClassPath> MADE = new HashMap<>();

    /** The option of a training job's ranks: record what they load and link. */
    private static final String RECORD = "-XX:AOTMode=record";

    private final String classPath;
    /** Where the cache is (or goes); null when there can be none. */
    private final Path cache;
    private int trainingsLeft = TRAININGS;
    private boolean training;

    private JobClassPath(String classPath, Path cache) {
        this.classPath = classPath;
        this.cache = cache;
    }

    /** The class path {@code classPath} with its directories packed into jars, and its cache. */
    static synchronized JobClassPath of(String classPath) {
        return MADE.computeIfAbsent(classPath, JobClassPath::pack);
    }

    private static JobClassPath pack(String classPath) {
        if (!AotCache.on()) {
            return new JobClassPath(classPath, null);
        }
        try {
            List<String> entries = new ArrayList<>();
            Path store = null;
            for (String entry : classPath.split(File.pathSeparator)) {
                Path p = Path.of(entry);
                if (Files.isDirectory(p)) {
                    if (store == null) {
                        store = p.toAbsolutePath().getParent().resolve("ferry-aot");
                        Files.createDirectories(store);
                    }
                    Path jar = store.resolve(entries.size() + "-" + p.getFileName() + ".jar");
                    jar(p, jar);
                    entries.add(jar.toString());
                } else if (entry.endsWith(".jar") && Files.isRegularFile(p)) {
                    entries.add(entry);
                } else if (!Files.exists(p)) {
                    continue; // the JVM skips it too (a test-jar not built yet)
                } else {
                    return new JobClassPath(classPath, null); // something the JVM cannot cache
                }
            }
            String packed = String.join(File.pathSeparator, entries);
            Path dir = store != null ? store : Path.of(System.getProperty("java.io.tmpdir"));
            Path cache = dir.resolve("jobs-" + AotCache.key(packed) + ".aot");
            return new JobClassPath(packed, cache);
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "test jobs run without an ahead-of-time cache: {0}", e.toString());
            return new JobClassPath(classPath, null);
        }
    }

    /** Packs directory {@code dir} into {@code jar}, written beside it and renamed into place whole. */
    private static void jar(Path dir, Path jar) throws IOException {
        Path fresh = jar.resolveSibling(jar.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try (OutputStream out = Files.newOutputStream(fresh); JarOutputStream j = new JarOutputStream(out);
             Stream<Path> files = Files.walk(dir)) {
            j.setLevel(Deflater.BEST_SPEED);
            for (Path f : files.sorted().toList()) {
                String name = dir.relativize(f).toString().replace(File.separatorChar, '/');
                if (name.isEmpty()) {
                    continue;
                }
                JarEntry entry = new JarEntry(Files.isDirectory(f) ? name + "/" : name);
                entry.setLastModifiedTime(Files.getLastModifiedTime(f)); // the same files make the same jar
                j.putNextEntry(entry);
                if (!entry.isDirectory()) {
                    Files.copy(f, j);
                }
                j.closeEntry();
            }
        }
        if (Files.isRegularFile(jar) && Files.mismatch(fresh, jar) == -1) {
            Files.delete(fresh); // the same classes: the jar keeps its time, and so the cache made of it fits
        } else {
            Files.move(fresh, jar, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The class path the ranks run with: the directories' jars in their places. */
    String classPath() {
        return classPath;
    }

    /**
     * The ranks' JVM options for the next job, whose environment adds {@code env}: map the cache,
     * or record what they load and link (the job trains), or none that touch it. Always one that names a cache, so that the
     * launcher does not make its own for the user's class path ({@link AotCache}).
     */
    synchronized List<String> options(Map<String, String> env) {
        if (cache == null) {
            return List.of("-Xshare:auto");
        }
        if (Files.isRegularFile(cache)) {
            return AotCache.jvmOptions(cache.toString());
        }
        // a tool's options (a flight recording) would not survive recording: JFR is off while it runs
        if (training || trainingsLeft == 0 || env.containsKey("JAVA_TOOL_OPTIONS") || env.containsKey("JDK_JAVA_OPTIONS")) {
            return List.of("-Xshare:auto");
        }
        training = true;
        trainingsLeft--;
        return List.of(RECORD, "-XX:AOTConfiguration=" + cache + ".%p.conf", "-Xlog:aot=off", "-Xlog:cds=off");
    }

    /** {@code out}, a job's output, without the lines the JVM prints when a training rank's record is written. */
    static String withoutTrainingNotes(List<String> options, String out) {
        if (!options.contains(RECORD)) {
            return out;
        }
        return out.lines().filter(l -> !l.contains(" AOTConfiguration recorded: ")).map(l -> l + "\n")
                .collect(java.util.stream.Collectors.joining());
    }

    /**
     * After the job that ran with {@code options}, which ended with {@code exit}: when it trained
     * and ended well, makes the cache from one rank's record, in one JVM of the ranks' options
     * {@code jvm} (the assembly once, not once per rank), renamed into place only when whole.
     */
    synchronized void ended(List<String> options, int exit, List<String> jvm) {
        if (cache == null || !options.contains(RECORD)) {
            return;
        }
        training = false;
        String prefix = cache + ".pid";
        Path made = cache.resolveSibling(cache.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try (Stream<Path> listed = Files.list(cache.getParent())) {
            List<Path> records = listed.filter(p -> p.toString().startsWith(prefix) && p.toString().endsWith(".conf")).toList();
            Path record = records.stream().filter(p -> p.toFile().length() > 0).findFirst().orElse(null);
            if (exit == 0 && record != null) {
                List<String> cmd = new ArrayList<>(List.of(dev.ferry.launch.ChildJvm.javaExecutable().toString(), "-XX:AOTMode=create",
                        "-XX:AOTConfiguration=" + record, "-XX:AOTCache=" + made, "-Xlog:aot=off", "-Xlog:cds=off"));
                cmd.addAll(jvm);
                cmd.addAll(List.of("-cp", classPath));
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0) {
                    Files.move(made, cache, StandardCopyOption.ATOMIC_MOVE);
                } else {
                    p.destroyForcibly();
                }
            }
            for (Path r : records) {
                Files.deleteIfExists(r);
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "no ahead-of-time cache made for test jobs: {0}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                Files.deleteIfExists(made);
            } catch (IOException ignored) {
                // best effort
            }
        }
    }
}
