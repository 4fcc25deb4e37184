package dev.ferry.dist;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README as a newcomer follows it: every Java snippet compiles with JDK 25 against Ferry; the
 * programs among them run as its commands say; its first command ({@code bin/ferry demo}) and the
 * launcher table's Ferry, Hydra and Open MPI rows run as written, from the distribution (the
 * Slurm rows need a Slurm cluster: {@code LaunchersTest} runs those forms on one of its own).
 */
class ReadmeTest {
    private static final Path ROOT = Path.of(System.getProperty("ferry.root")).toAbsolutePath().normalize();
    private static final Pattern JAVA = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

    @TempDir
    static Path scratch;
    static String readme;
    static Path home;
    static Commands sh;
    static Path app;

    @BeforeAll
    static void setUp() throws Exception {
        readme = Files.readString(ROOT.resolve("README.md"));
        home = Commands.unpack(scratch);
        app = Files.createDirectories(scratch.resolve("app"));
        Map<String, String> env = new HashMap<>(Commands.withoutMaven(scratch));
        // `java` in the README's commands is a JDK 25's
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + env.get("PATH"));
        sh = new Commands(scratch, env);
    }

    /** A README command as written, with bin/ferry the distribution's and /tmp/app this test's. */
    private static String command(String line) {
        String c = line.replaceAll("\\s+#.*$", "").strip();
        return c.replace("bin/ferry", home.resolve("bin/ferry").toString()).replace("/tmp/app", app.toString());
    }

    /** The README's lines (in code blocks or table cells) that start with {@code prefix}. */
    private static List<String> lines(String prefix) {
        List<String> out = new ArrayList<>();
        for (String l : readme.lines().toList()) {
            String t = l.strip();
            if (t.startsWith("|")) {
                Matcher m = Pattern.compile("`([^`]+)`").matcher(t);
                while (m.find()) {
                    if (m.group(1).startsWith(prefix)) {
                        out.add(m.group(1));
                    }
                }
            } else if (t.startsWith(prefix)) {
                out.add(t);
            }
        }
        assertTrue(!out.isEmpty(), "README: no line starting '" + prefix + "'");
        return out;
    }

    private static List<String> javaBlocks() {
        List<String> blocks = new ArrayList<>();
        Matcher m = JAVA.matcher(readme);
        while (m.find()) {
            blocks.add(m.group(1));
        }
        return blocks;
    }

    @Test
    void everyJavaSnippetCompiles() throws Exception {
        Path src = Files.createDirectories(scratch.resolve("snippets"));
        List<String> files = new ArrayList<>();
        int n = 0;
        for (String block : javaBlocks()) {
            Path f;
            if (block.contains("public static void main")) { // a whole program: as it is
                Matcher cls = Pattern.compile("public class (\\w+)").matcher(block);
                assertTrue(cls.find(), block);
                f = src.resolve(cls.group(1) + ".java");
                Files.writeString(f, block);
            } else { // a fragment: in a method where the README's names (world, rank, ...) exist
                n++;
                List<String> imports = new ArrayList<>();
                StringBuilder body = new StringBuilder();
                for (String l : block.lines().toList()) {
                    if (l.startsWith("import ")) {
                        imports.add(l);
                    } else {
                        body.append(l).append('\n');
                    }
                }
                String code = body.toString();
                String head;
                if (code.contains("DriverConformanceTest")) { // MyDriver stands for the reader's driver: here, tcp
                    head = "import dev.ferry.conformance.*;\nimport dev.ferry.spi.*;\n";
                    code = code.replace("new MyDriver()", "new dev.ferry.driver.tcp.TcpDriver()");
                    f = src.resolve("Snippet" + n + ".java");
                    Files.writeString(f, head + String.join("\n", imports) + "\n" + code);
                } else {
                    head = code.contains("Portals")
                            ? "import dev.ferry.portals.*;\nimport dev.ferry.spi.Settings;\nimport dev.ferry.launch.pmi.InProcessJob;\n"
                            : "import dev.ferry.*;\n";
                    f = src.resolve("Snippet" + n + ".java");
                    Files.writeString(f, head + "import java.time.Duration;\n" + String.join("\n", imports) + "\n"
                            + "class Snippet" + n + " {\n    static void run(" + (code.contains("ferry ->") ? "" : "dev.ferry.Ferry ferry, ")
                            + "dev.ferry.Comm world, int rank, int size) throws Exception {\n"
                            + code + "    }\n}\n");
                }
            }
            files.add(f.toString());
        }
        assertTrue(files.size() >= 7, "java blocks in the README: " + files.size());
        List<String> args = new ArrayList<>(List.of("-d", scratch.resolve("snippet-classes").toString(),
                "-cp", System.getProperty("java.class.path"), "-Xlint:none", "-proc:none"));
        args.addAll(files);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = ToolProvider.getSystemJavaCompiler().run(null, err, err, args.toArray(String[]::new));
        assertEquals(0, status, "README snippets do not compile:\n" + err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theFirstCommandRunsTheDemo() throws Exception {
        String demo = lines("bin/ferry demo").get(0);
        String out = sh.ok(300, "bash", "-c", command(demo)).output();
        assertTrue(out.contains("ferry demo: 4 ranks on 2 node(s)"), out);
        List<String> rows = out.lines().filter(l -> l.matches("\\d-\\d .*")).toList();
        assertEquals(6, rows.size(), out); // every pair of the 2 x 2 ranks
        for (String row : rows) {
            boolean sameNode = row.startsWith("0-1") || row.startsWith("2-3");
            // the ping-pongs' count follows the machine's pace (at least 200)
            assertTrue(row.matches("\\d-\\d\\s+" + (sameNode ? "same node\\s+shm" : "remote\\s+tcp") + "\\s+[0-9.]+ us \\([0-9]{3,}\\)\\s+[0-9]+ MB/s\\s*"), row);
        }
    }

    @Test
    void writingAProgramCompilesAndRunsToken() throws Exception {
        String token = javaBlocks().stream().filter(b -> b.contains("public class Token")).findFirst().orElseThrow();
        Files.writeString(scratch.resolve("Token.java"), token);
        sh.ok(120, "bash", "-c", command(lines("bin/ferry javac -d /tmp/app Token.java").get(0)));
        String out = sh.ok(120, "bash", "-c", command(lines("bin/ferry run -n 4 -cp /tmp/app Token").get(0))).output();
        for (int r = 0; r < 4; r++) {
            assertTrue(out.contains("rank " + r + " got " + ((r + 3) % 4 * 1.5) + " from rank " + (r + 3) % 4), out);
        }
    }

    @Test
    void anMpiProgramRunsUnderEachLauncherAsWritten() throws Exception {
        String hello = javaBlocks().stream().filter(b -> b.contains("public class Hello")).findFirst().orElseThrow();
        Files.writeString(scratch.resolve("Hello.java"), hello);
        sh.ok(120, "bash", "-c", command(lines("bin/ferry javac -d /tmp/app Hello.java").get(0)));
        List<String> runs = new ArrayList<>(lines("bin/ferry run -n 4 -cp /tmp/app Hello"));
        runs.addAll(lines("mpiexec.hydra -n 4 java"));
        runs.add(openMpi(lines("mpirun.openmpi -np 4 java").get(0)));
        for (String run : runs) {
            String out = sh.ok(180, "bash", "-c", command(run)).output();
            for (int r = 0; r < 4; r++) {
                assertTrue(out.contains("hello from rank " + r + " of 4; ranks sum to 6"), run + ":\n" + out);
            }
        }
    }

    @Test
    void theLauncherTableRunsAsWritten() throws Exception {
        List<String> rows = new ArrayList<>(lines("bin/ferry run -n 4 --example hello"));
        rows.addAll(lines("mpiexec.hydra -n 4 bin/ferry exec --example hello"));
        rows.add(openMpi(lines("mpirun -np 4 bin/ferry exec --example hello").get(0).replace("mpirun ", "mpirun.openmpi ")));
        for (String row : rows) {
            String out = sh.ok(180, "bash", "-c", command(row)).output();
            for (int r = 0; r < 4; r++) {
                assertTrue(out.contains("hello from rank " + r + " of 4"), row + ":\n" + out);
            }
        }
    }

    /** Open MPI's mpirun as the README says to run it with more ranks than cores, and as root. */
    private static String openMpi(String line) {
        String extra = " --oversubscribe" + ("root".equals(System.getProperty("user.name")) ? " --allow-run-as-root" : "");
        return line.replaceFirst("^(mpirun(\\.openmpi)?)", "$1" + extra);
    }
}
