package dev.ferry.core.driver;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/** Builds driver plugin jars at test time: compiles sources against this class path and packs them. */
final class PluginJars {
    private PluginJars() {
    }

    /**
     * @param sources   class name to source text
     * @param services  content of META-INF/services/dev.ferry.spi.Driver, or null for none
     */
    static Path build(Path dir, String jarName, Map<String, String> sources, String services) throws IOException {
        Path src = Files.createTempDirectory(dir, "src");
        Path classes = Files.createTempDirectory(dir, "classes");
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path f = src.resolve(e.getKey().replace('.', '/') + ".java");
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
        }
        if (!sources.isEmpty()) {
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            String[] files;
            try (Stream<Path> s = Files.walk(src)) {
                files = s.filter(p -> p.toString().endsWith(".java")).map(Path::toString).toArray(String[]::new);
            }
            String[] args = Stream.concat(Stream.of("-d", classes.toString(), "-cp", System.getProperty("java.class.path")),
                    Stream.of(files)).toArray(String[]::new);
            if (javac.run(null, null, null, args) != 0) {
                throw new IllegalStateException("plugin sources did not compile");
            }
        }
        Path jar = dir.resolve(jarName);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> s = Files.walk(classes)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(p).toString().replace('\\', '/')));
                Files.copy(p, out);
                out.closeEntry();
            }
            if (services != null) {
                out.putNextEntry(new JarEntry("META-INF/services/dev.ferry.spi.Driver"));
                out.write(services.getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return jar;
    }

    static void writeGarbage(Path file) throws IOException {
        try (OutputStream o = Files.newOutputStream(file)) {
            o.write("this is not a zip file".getBytes(StandardCharsets.UTF_8));
        }
    }
}
