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
            Path jar = dir.resolve("dir" + n++ + ".jar");
            try (var out = new JarOutputStream(Files.newOutputStream(jar)); var files = Files.walk(p)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    out.putNextEntry(new JarEntry(p.relativize(f).toString().replace(File.separatorChar, '/')));
                    Files.copy(f, out);
                    out.closeEntry();
                }
            }
            entries.add(jar.toString());
        }
        return String.join(File.pathSeparator, entries);
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
