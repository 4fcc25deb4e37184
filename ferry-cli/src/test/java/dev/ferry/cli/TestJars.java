package dev.ferry.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/** Class paths of jars made from the tests' own (a class path of jars can have an ahead-of-time cache; one with directories cannot). */
final class TestJars {
    private TestJars() {
    }

    /** {@code classPath} with each directory in it made a jar under {@code dir}. */
    static String jarred(String classPath, Path dir) throws IOException {
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String e : classPath.split(File.pathSeparator)) {
            Path p = Path.of(e);
            if (!Files.isDirectory(p)) {
                entries.add(e);
                continue;
            }
            entries.add(pack(p, dir.resolve("dir" + n++ + ".jar")).toString());
        }
        return String.join(File.pathSeparator, entries);
    }

    /** Where {@link #packed} keeps its jars: in the build's directory, which every virtual host sees. */
    private static final Path PACKED = Path.of("target", "ferry-aot-cli").toAbsolutePath();
    private static final java.util.Map<String, String> PACKS = new java.util.HashMap<>();

    /**
     * {@code classPath} with each directory packed into a jar, so that ferry run keeps an
     * ahead-of-time cache for the JVMs that run on it (half a second of CPU less per rank here).
     * Once per test JVM; a jar whose bytes would not change is kept as it is, with its time, so a
     * later test run on unchanged classes finds the cache of this one.
     */
    static synchronized String packed(String classPath) {
        return PACKS.computeIfAbsent(classPath, cp -> {
            try {
                Files.createDirectories(PACKED);
                List<String> entries = new ArrayList<>();
                for (String e : cp.split(File.pathSeparator)) {
                    Path p = Path.of(e);
                    entries.add(Files.isDirectory(p) ? pack(p, PACKED.resolve(p.getFileName() + "-" + Integer.toHexString(p.toAbsolutePath().hashCode()) + ".jar")).toString() : e);
                }
                return String.join(File.pathSeparator, entries);
            } catch (IOException x) {
                throw new java.io.UncheckedIOException(x);
            }
        });
    }

    /** The test JVM's own class path, {@link #packed}. */
    static String classPath() {
        return packed(System.getProperty("java.class.path"));
    }

    /** This module's test classes (the rank programs) as a jar of their own, {@link #packed}. */
    static String testClasses() {
        return packed(Path.of(TestJars.class.getProtectionDomain().getCodeSource().getLocation().getPath()).toString());
    }

    /**
     * The options that start a launcher JVM of {@code classPath} from the cache ferry run keeps
     * for ranks of that class path (its link under the home directory), when there is one: a
     * JVM that finds none runs without.
     */
    static List<String> aotOptions(String classPath) {
        return dev.ferry.launch.run.AotCache.jvmOptions(Path.of(System.getProperty("user.home"))
                .resolve(dev.ferry.launch.run.AotCache.linkUnderHome(classPath)).toString());
    }

    /**
     * The command of a launcher JVM of {@code classPath} running the command line with
     * {@code args}: its cache ({@link #aotOptions}) and the relay options {@code bin/ferry} gives
     * it; a job's ranks ({@code run}) compile as test jobs' do ({@link dev.ferry.launch.run.CapturedJob#SHORT_JOB_COMPILE}).
     */
    static List<String> launcher(String classPath, String... args) {
        List<String> cmd = new java.util.ArrayList<>(List.of(dev.ferry.launch.ChildJvm.javaExecutable().toString(), "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(aotOptions(classPath));
        cmd.addAll(dev.ferry.launch.ChildJvm.RELAY_OPTIONS);
        cmd.addAll(List.of("-cp", classPath, Main.class.getName()));
        for (int i = 0; i < args.length; i++) {
            cmd.add(args[i]);
            if (i == 0 && args[0].equals("run")) {
                cmd.add(dev.ferry.launch.run.CapturedJob.SHORT_JOB_COMPILE);
            }
        }
        return cmd;
    }

    /** {@code dir}'s files into {@code jar}, entries sorted and timeless (the same files make the same bytes). */
    private static Path pack(Path dir, Path jar) throws IOException {
        Path fresh = jar.resolveSibling(jar.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try (var out = new JarOutputStream(Files.newOutputStream(fresh)); var files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                JarEntry entry = new JarEntry(dir.relativize(f).toString().replace(File.separatorChar, '/'));
                entry.setTime(0);
                out.putNextEntry(entry);
                Files.copy(f, out);
                out.closeEntry();
            }
        }
        if (Files.exists(jar) && Files.mismatch(jar, fresh) == -1) {
            Files.delete(fresh);
        } else {
            Files.move(fresh, jar, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        return jar;
    }

    /** Deletes {@code dir} and everything under it. */
    static void delete(Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
