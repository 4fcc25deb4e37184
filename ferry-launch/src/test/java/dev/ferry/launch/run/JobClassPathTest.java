package dev.ferry.launch.run;

import dev.ferry.launch.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JobClassPathTest {
    private static final List<String> JVM = List.of("-XX:+UseSerialGC");

    /** A class path of one directory holding this test's own class (a main that prints one line). */
    private static String classesIn(Path dir) throws Exception {
        Path classes = Files.createDirectories(dir.resolve("classes"));
        String name = Hello.class.getName().replace('.', '/') + ".class";
        Path to = classes.resolve(name);
        Files.createDirectories(to.getParent());
        try (var in = Hello.class.getClassLoader().getResourceAsStream(name)) {
            Files.copy(in, to);
        }
        return classes.toString();
    }

    /** What a rank of a job would print. */
    public static final class Hello {
        public static void main(String[] args) {
            System.out.println("hello");
        }
    }

    private static String java(List<String> options, String classPath) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ChildJvm.javaExecutable().toString()));
        cmd.addAll(options);
        cmd.addAll(JVM);
        cmd.addAll(List.of("-cp", classPath, Hello.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the JVM did not end within 60 s");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void directoriesBecomeJarsAndTheFirstJobThatEndsWellTrainsTheCacheTheNextOnesMap(@TempDir Path dir) throws Exception {
        JobClassPath cp = JobClassPath.of(classesIn(dir));
        String[] entries = cp.classPath().split(File.pathSeparator);
        assertEquals(1, entries.length, cp.classPath());
        assertTrue(entries[0].endsWith(".jar"), cp.classPath());
        try (JarFile jar = new JarFile(entries[0])) {
            assertTrue(jar.getEntry(Hello.class.getName().replace('.', '/') + ".class") != null, "the class is in the jar");
        }
        assertEquals(cp, JobClassPath.of(dir.resolve("classes").toString()), "packed once per process");

        List<String> training = cp.options(Map.of());
        assertTrue(training.contains("-XX:AOTMode=record"), training.toString());
        assertEquals(List.of("-Xshare:auto"), cp.options(Map.of()), "one job trains at a time");
        String out = java(training, cp.classPath());
        assertTrue(out.contains("AOTConfiguration recorded"), out);
        assertEquals("hello\n", JobClassPath.withoutTrainingNotes(training, out), "the JVM's note is not the job's output");
        cp.ended(training, 0, JVM);

        List<String> mapped = cp.options(Map.of());
        assertTrue(mapped.stream().anyMatch(o -> o.startsWith("-XX:AOTCache=")), mapped.toString());
        List<String> verbose = new ArrayList<>(mapped.stream().filter(o -> !o.startsWith("-Xlog")).toList());
        verbose.add("-Xlog:aot");
        String log = java(verbose, cp.classPath());
        assertTrue(log.contains("Opened AOT cache") && log.contains("hello"), "the ranks map it: " + log);
        try (var left = Files.list(Path.of(mapped.getFirst().substring("-XX:AOTCache=".length())).getParent())) {
            assertFalse(left.anyMatch(p -> p.toString().endsWith(".conf") || p.toString().endsWith(".tmp")), "no record or half-made cache is left");
        }
    }

    @Test
    void aJobThatFailsTrainsNothingAndAfterThreeTheClassPathRunsWithout(@TempDir Path dir) throws Exception {
        JobClassPath cp = JobClassPath.of(classesIn(dir));
        assertEquals(List.of("-Xshare:auto"), cp.options(Map.of("JAVA_TOOL_OPTIONS", "-XX:StartFlightRecording")),
                "a job with a tool's options does not train: JFR is off while a JVM records");
        for (int i = 0; i < JobClassPath.TRAININGS; i++) {
            List<String> training = cp.options(Map.of());
            assertTrue(training.contains("-XX:AOTMode=record"), "training " + i + ": " + training);
            cp.ended(training, 1, JVM);
        }
        assertEquals(List.of("-Xshare:auto"), cp.options(Map.of()));
    }
}
