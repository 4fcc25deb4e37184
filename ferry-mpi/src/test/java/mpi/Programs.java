package mpi;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The programs of both Java MPI families in {@code src/programs/java}, compiled by javac with
 * nothing but the {@code mpi} package on the class path: that they compile is the first check.
 */
final class Programs {
    private static Path compiled;

    private Programs() {
    }

    /** The directory of the compiled programs (compiled once per test JVM). */
    static synchronized Path compiled() throws IOException, URISyntaxException {
        if (compiled != null) {
            return compiled;
        }
        Path mpiClasses = Path.of(MPI.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path sources = Path.of("src/programs/java");
        Path out = Path.of("target/mpi-programs");
        Files.createDirectories(out);
        List<String> args = new ArrayList<>(List.of("-d", out.toString(), "-cp", mpiClasses.toString(), "-Xlint:all,-cast", "-Werror")); // mpiJava programs cast clone(), which returns Object there
        Path twin = sources.resolve("osu/OsuFerryApi.java"); // the benchmarks' reference on Ferry's own API
        try (Stream<Path> files = Files.walk(sources)) {
            files.filter(p -> p.toString().endsWith(".java") && !p.equals(twin)).forEach(p -> args.add(p.toString()));
        }
        javac(args, "the programs do not compile against the mpi package alone");
        javac(List.of("-d", out.toString(), "-cp", System.getProperty("java.class.path"), "-Xlint:all", "-Werror", twin.toString()),
                "the API twin of the benchmarks does not compile");
        compiled = out;
        return out;
    }

    private static void javac(List<String> args, String failure) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        if (javac.run(null, diagnostics, diagnostics, args.toArray(new String[0])) != 0) {
            throw new AssertionError(failure + ":\n" + diagnostics);
        }
    }

    /** The class path to run them: the programs, then the test JVM's (Ferry's). */
    static String classPath() throws IOException, URISyntaxException {
        return compiled().toAbsolutePath() + java.io.File.pathSeparator + System.getProperty("java.class.path");
    }
}
