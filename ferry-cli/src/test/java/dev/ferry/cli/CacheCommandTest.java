package dev.ferry.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ferry cache}: makes this machine's ahead-of-time cache for Ferry's class path, once. */
class CacheCommandTest {
    /** {@code ferry cache} in a JVM of its own with {@code classPath} and {@code home} as its home directory; its output. */
    private static String cache(String classPath, Path home) throws Exception {
        Process p = new ProcessBuilder(dev.ferry.launch.ChildJvm.javaExecutable().toString(), "--enable-native-access=ALL-UNNAMED",
                "-Duser.home=" + home, "-cp", classPath, Main.class.getName(), "cache").redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "ferry cache did not end within 120 s");
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), text);
        return text;
    }

    @Test
    void makesTheCacheAndItsLinkOnceForAClassPathOfJars() throws Exception {
        Path dir = Files.createTempDirectory("ferry-cache-test");
        try {
            Path home = Files.createDirectories(dir.resolve("home"));
            String cp = TestJars.jarred(System.getProperty("java.class.path"), Files.createDirectories(dir.resolve("jars")));
            String first = cache(cp, home);
            assertTrue(first.startsWith("ferry cache: made "), first);
            Path link = home.resolve(dev.ferry.launch.run.AotCache.linkUnderHome(cp));
            assertTrue(Files.isSymbolicLink(link), "the link by class path, which bin/ferry exec finds: " + link);
            assertTrue(Files.size(link.toRealPath()) > 1_000_000, "a cache of the loaded classes");
            String second = cache(cp, home);
            assertTrue(second.startsWith("ferry cache: there is one already: "), second);
        } finally {
            TestJars.delete(dir);
        }
    }

    @Test
    void aClassPathWithDirectoriesHasNoneAndSaysWhy() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = Main.run(List.of("cache"), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, rc);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("the JVM caches jar files only"), out.toString(StandardCharsets.UTF_8));
        assertEquals(2, Main.run(List.of("cache", "extra"), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
    }
}
