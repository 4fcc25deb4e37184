package dev.ferry.dist;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user's own project, built with Maven from the README's "Using Ferry in your build" snippet
 * against this build's artifacts (in a local repository of the test's own; everything else from
 * the machine's), with the README's programs as its sources; then run as a plain Java program, on
 * the module path, and under {@code ferry run} from the distribution.
 */
class BuildSnippetTest {
    private static final Path ROOT = Path.of(System.getProperty("ferry.root")).toAbsolutePath().normalize();
    private static final String VERSION = System.getProperty("ferry.version");
    /** This build's artifacts a user's project reaches: the parent, the BOM, the libraries. */
    private static final List<String> MODULES = List.of("ferry-bom", "ferry-spi", "ferry-launch", "ferry-core",
            "ferry-portals", "ferry-api", "ferry-mpi", "ferry-driver-self", "ferry-driver-shm", "ferry-driver-tcp", "ferry-driver-ucx");

    @TempDir
    static Path scratch;
    static Path project;
    static String dependencies;
    static Commands sh;

    @BeforeAll
    static void build() throws Exception {
        String readme = Files.readString(ROOT.resolve("README.md"));
        String section = readme.substring(readme.indexOf("## Using Ferry in your build"));
        String snippet = block(section, "xml", "");
        Path repo = localRepository(scratch.resolve("repo"));
        project = Files.createDirectories(scratch.resolve("tiny"));
        Files.writeString(project.resolve("pom.xml"), """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>demo</groupId>
                  <artifactId>tiny</artifactId>
                  <version>1</version>
                  <properties>
                    <maven.compiler.release>25</maven.compiler.release>
                    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
                  </properties>
                  %s
                  <build><plugins>
                    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.16.0</version></plugin>
                    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
                  </plugins></build>
                </project>
                """.formatted(snippet));
        Path src = Files.createDirectories(project.resolve("src/main/java/tiny"));
        Files.writeString(src.resolve("Token.java"), "package tiny;\n" + block(readme, "java", "public class Token"));
        Files.writeString(src.resolve("InProcess.java"), """
                package tiny;
                import dev.ferry.*;
                import java.time.Duration;
                public class InProcess {
                    public static void main(String[] args) throws Exception {
                        %s
                        System.out.println("in-process job of 4 done");
                    }
                }
                """.formatted(block(readme, "java", "Ferry.runInProcess(4")));
        Files.writeString(project.resolve("src/main/java/module-info.java"), "module tiny { requires dev.ferry; }\n");

        // Maven from the machine, itself on this JDK 25 as the README says; the project's own repository,
        // fed from the machine's for everything that is not Ferry's (so the plugins are the versions
        // Ferry's own build uses, which are there)
        Path settings = scratch.resolve("settings.xml");
        Files.writeString(settings, """
                <settings><mirrors><mirror><id>machine</id><mirrorOf>*</mirrorOf>
                <url>%s</url></mirror></mirrors></settings>
                """.formatted(Path.of(System.getProperty("user.home"), ".m2/repository").toUri()));
        Commands mvn = new Commands(project, Map.of("JAVA_HOME", System.getProperty("java.home"), "MAVEN_OPTS", ""));
        mvn.ok(300, "mvn", "-B", "-q", "-Dstyle.color=never", "-s", settings.toString(), "-Dmaven.repo.local=" + repo,
                "compile", "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath", "-Dmdep.outputFile=cp.txt");
        dependencies = Files.readString(project.resolve("cp.txt")).strip();
        Path home = Commands.unpack(Files.createDirectories(scratch.resolve("dist")));
        sh = new Commands(project, Map.of("FERRY_HOME_FOR_TEST", home.toString(), "JAVA_HOME", System.getProperty("java.home")));
    }

    /** The first fenced block of {@code lang} in {@code text} that contains {@code marker}. */
    private static String block(String text, String lang, String marker) {
        Matcher m = Pattern.compile("```" + lang + "\\n(.*?)```", Pattern.DOTALL).matcher(text);
        while (m.find()) {
            if (m.group(1).contains(marker)) {
                return m.group(1);
            }
        }
        throw new AssertionError("README: no ```" + lang + " block with '" + marker + "'");
    }

    /** A local repository holding this build's artifacts as {@code mvn install} would put them. */
    private static Path localRepository(Path repo) throws IOException {
        put(repo, "ferry-parent", ROOT.resolve("pom.xml"), "pom");
        for (String m : MODULES) {
            put(repo, m, ROOT.resolve(m).resolve("pom.xml"), "pom");
            Path jar = ROOT.resolve(m).resolve("target").resolve(m + "-" + VERSION + ".jar");
            if (!m.equals("ferry-bom")) {
                assertTrue(Files.exists(jar), jar + " missing: the modules are packaged before this one");
                put(repo, m, jar, "jar");
            }
        }
        return repo;
    }

    private static void put(Path repo, String artifact, Path file, String ext) throws IOException {
        Path dir = Files.createDirectories(repo.resolve("dev/ferry").resolve(artifact).resolve(VERSION));
        Files.copy(file, dir.resolve(artifact + "-" + VERSION + "." + ext), StandardCopyOption.REPLACE_EXISTING);
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    @Test
    void theDependenciesAreTheApiTheEngineAndTheDriversNotTheTools() {
        for (String needed : List.of("ferry-api-", "ferry-core-", "ferry-portals-", "ferry-driver-self-", "ferry-driver-shm-", "ferry-driver-tcp-", "agrona-")) {
            assertTrue(dependencies.contains(needed), needed + " missing: " + dependencies);
        }
        for (String not : List.of("ferry-cli", "ferry-bench", "jmh", "jucx", "ferry-driver-ucx")) {
            assertTrue(!dependencies.contains(not), not + " is not an application's dependency: " + dependencies);
        }
    }

    @Test
    void runsAsAPlainJavaProgram() throws Exception {
        String cp = project.resolve("target/classes") + ":" + dependencies;
        String token = sh.ok(120, java(), "--enable-native-access=ALL-UNNAMED", "-cp", cp, "tiny.Token").output();
        assertTrue(token.contains("rank 0 got 0.0 from rank 0"), token);   // a job of one sends to itself
        String all = sh.ok(120, java(), "--enable-native-access=ALL-UNNAMED", "-cp", cp, "tiny.InProcess").output();
        assertTrue(all.contains("in-process job of 4 done"), all);
    }

    @Test
    void runsOnTheModulePath() throws Exception {
        String mp = project.resolve("target/classes") + ":" + dependencies;
        String out = sh.ok(120, java(), "--enable-native-access=dev.ferry.spi,dev.ferry.core,dev.ferry.launch,dev.ferry.driver.shm,dev.ferry.driver.tcp",
                "-p", mp, "-m", "tiny/tiny.InProcess").output();
        assertTrue(out.contains("in-process job of 4 done"), out);
        assertTrue(!out.contains("WARNING"), "the JDK warned: " + out);
    }

    @Test
    void runsUnderFerryRun() throws Exception {
        Path ferry = Path.of(sh.env("FERRY_HOME_FOR_TEST"), "bin/ferry");
        String out = sh.ok(120, ferry.toString(), "run", "-n", "3", "-cp", project.resolve("target/classes").toString(), "tiny.Token").output();
        for (int r = 0; r < 3; r++) {
            assertTrue(out.contains("rank " + r + " got " + ((r + 2) % 3 * 1.5) + " from rank " + (r + 2) % 3), out);
        }
    }
}
