package dev.ferry.launch.run;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A job of JVMs running one main class on the caller's class path, its output collected: what
 * multi-process tests use to run rank programs. Ranks reach each other over loopback TCP unless
 * the environment says otherwise. A wait that lasts half the timeout logs the rank's state
 * (FERRY_STALL_REPORT), and a job that times out prints its JVMs' threads. The ranks start from an ahead-of-time cache of the class path
 * ({@link JobClassPath}), trained by the first job that ends well.
 *
 * <pre>{@code
 * CapturedJob.Result r = CapturedJob.run(3, Map.of("FERRY_DRIVERS", "self,shm"), Duration.ofMinutes(5), MyRanks.class, "ops");
 * assertEquals(0, r.exit(), r.toString());
 * }</pre>
 */
public final class CapturedJob {
    /** A finished job: its exit status and what its ranks printed. */
    public record Result(int exit, String out, String err) {
        /** The lines starting with "ok " that the ranks printed, without their rank tags. */
        public List<String> okLines() {
            return out.lines().map(l -> l.replaceFirst("^\\[\\d+\\] ", "")).filter(l -> l.startsWith("ok ")).toList();
        }

        @Override
        public String toString() {
            return "exit " + exit + "\n--- out\n" + out + "--- err\n" + err;
        }
    }

    /**
     * The compiler option of a test job's ranks. A test job is short: most of its ranks' CPU went
     * to compiling code run a few hundred times (a third of a 4-rank job's, on 2 cores).
     * Thresholds 20 times higher compile only what a job runs hot; a loop over gigabytes still
     * reaches C2 within a fraction of a second.
     */
    public static final String SHORT_JOB_COMPILE = "-XX:CompileThresholdScaling=20";

    /** Whether the kernel here offers transparent huge pages on request (the ranks then ask for them). */
    private static final boolean HUGE_PAGES = hugePagesOnRequest();

    /**
     * The ranks' JVM options, besides the class path and its cache. Where the kernel offers
     * transparent huge pages on request, the heap asks for them: on a virtual machine whose memory
     * the host hands over page by page as it is first touched, a test's 2.24 GB array took 7.5 s to
     * allocate, and 4.4 s in huge pages (a large-object job: 23 s, and 10 s).
     */
    private static final List<String> JVM = java.util.stream.Stream.concat(
            java.util.stream.Stream.of("--enable-native-access=ALL-UNNAMED", "-Xss1m", "-XX:+UseSerialGC", SHORT_JOB_COMPILE),
            HUGE_PAGES ? java.util.stream.Stream.of("-XX:+UseTransparentHugePages") : java.util.stream.Stream.empty()).toList();

    /** glibc's tunables, in the ranks' environment. */
    private static final String TUNABLES = "GLIBC_TUNABLES";

    /**
     * {@code tunables} (null: none) with glibc's malloc asking for transparent huge pages for
     * what it maps ({@code glibc.malloc.hugetlb=1}, glibc 2.35 and later; older ones ignore it),
     * unless they say otherwise: off-heap memory too, where the heap flag does not reach (an
     * {@code Arena.allocate} of gigabytes). Two ranks moving a message of 4 GiB took 2,150,000
     * page faults and 40 to 52 s on this kind of machine, and 53,000 and 10 to 11 s so.
     */
    static String mallocInHugePages(String tunables) {
        if (tunables == null || tunables.isBlank()) {
            return "glibc.malloc.hugetlb=1";
        }
        return tunables.contains("glibc.malloc.hugetlb") ? tunables : tunables + ":glibc.malloc.hugetlb=1";
    }

    /** Whether madvise asks for transparent huge pages here ("always" or "madvise"; the JVM warns where it cannot). */
    static boolean hugePagesOnRequest() {
        try {
            String mode = java.nio.file.Files.readString(java.nio.file.Path.of("/sys/kernel/mm/transparent_hugepage/enabled"));
            return mode.contains("[always]") || mode.contains("[madvise]");
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    private CapturedJob() {
    }

    /** Runs {@code main} with {@code args} in {@code ranks} JVMs; gives up after {@code timeout}. */
    public static Result run(int ranks, Map<String, String> env, Duration timeout, Class<?> main, String... args) throws Exception {
        return run(ranks, env, timeout, System.getProperty("java.class.path"), main.getName(), args);
    }

    /**
     * As {@link #run(int, Map, Duration, Class, String...)}, with the others killed {@code grace}
     * after a rank failed (20 s otherwise): for jobs whose other ranks wait to be ended.
     */
    public static Result run(int ranks, Map<String, String> env, Duration timeout, Duration grace, Class<?> main, String... args)
            throws Exception {
        return run(ranks, env, timeout, grace, System.getProperty("java.class.path"), main.getName(), args);
    }

    /** Runs class {@code main} of class path {@code classPath} with {@code args} in {@code ranks} JVMs. */
    public static Result run(int ranks, Map<String, String> env, Duration timeout, String classPath, String main, String... args) throws Exception {
        return run(ranks, env, timeout, Duration.ofSeconds(20), classPath, main, args);
    }

    private static Result run(int ranks, Map<String, String> env, Duration timeout, Duration grace, String classPath, String main,
                              String... args) throws Exception {
        JobClassPath cp = JobClassPath.of(classPath);
        List<String> cached = cp.options(env);
        List<String> java = new ArrayList<>(cached);
        java.addAll(JVM);
        java.addAll(List.of("-cp", cp.classPath(), main));
        java.addAll(List.of(args));
        Map<String, String> e = new HashMap<>(env);
        e.putIfAbsent("FERRY_TCP_INTERFACES", "lo");
        // a job that hangs says where before it times out: each stuck wait logs the rank's state
        e.putIfAbsent("FERRY_STALL_REPORT", Math.max(1, timeout.toSeconds() / 2) + "s");
        if (HUGE_PAGES) {
            e.put(TUNABLES, mallocInHugePages(e.getOrDefault(TUNABLES, System.getenv(TUNABLES))));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = -1;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8); PrintStream er = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = new Job(new JobSpec(ranks, java, e, true, timeout, grace), o, er).run();
        } finally {
            cp.ended(cached, exit, JVM);
        }
        return new Result(exit, JobClassPath.withoutTrainingNotes(cached, out.toString(StandardCharsets.UTF_8)), err.toString(StandardCharsets.UTF_8));
    }
}
