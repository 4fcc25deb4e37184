package dev.ferry.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs a command as a user would type it: in a directory, with an environment of its own, stdout
 * and stderr together, within a bound that fails the test loudly.
 */
final class Commands {
    /** What a command printed and how it ended. */
    record Result(int exit, String output) {
        Result expectSuccess(List<String> command) {
            assertEquals(0, exit, () -> String.join(" ", command) + " exited " + exit + ":\n" + output);
            return this;
        }
    }

    private final Path dir;
    private final Map<String, String> env;

    Commands(Path dir, Map<String, String> env) {
        this.dir = dir;
        this.env = env;
    }

    String env(String name) {
        return env.get(name);
    }

    Result run(long boundSeconds, String... command) throws IOException, InterruptedException {
        List<String> cmd = List.of(command);
        Path out = Files.createTempFile(dir, "out", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(boundSeconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            fail(String.join(" ", cmd) + " did not end within " + boundSeconds + " s:\n" + Files.readString(out, StandardCharsets.UTF_8));
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    }

    Result ok(long boundSeconds, String... command) throws IOException, InterruptedException {
        return run(boundSeconds, command).expectSuccess(List.of(command));
    }

    /** Unpacks the distribution into {@code into}; returns its top directory. */
    static Path unpack(Path into) throws IOException, InterruptedException {
        Path tar = Path.of(System.getProperty("ferry.dist"));
        new Commands(into, Map.of()).ok(60, "tar", "xzf", tar.toString());
        return into.resolve("ferry-" + System.getProperty("ferry.version"));
    }

    /**
     * An environment without Maven (a {@code mvn} that fails loudly comes first on the PATH) and
     * with this JDK 25 as JAVA_HOME: what a machine with only a JDK has.
     */
    static Map<String, String> withoutMaven(Path scratch) throws IOException {
        Path bin = Files.createDirectories(scratch.resolve("no-maven"));
        Path mvn = bin.resolve("mvn");
        Files.writeString(mvn, "#!/bin/sh\necho 'mvn was called' >&2\nexit 97\n");
        mvn.toFile().setExecutable(true);
        return Map.of("PATH", bin + ":" + System.getenv("PATH"), "JAVA_HOME", System.getProperty("java.home"));
    }

    static final String NO_MAVEN = "mvn was called";
}
