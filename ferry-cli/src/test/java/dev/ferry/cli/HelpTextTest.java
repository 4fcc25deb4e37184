package dev.ferry.cli;

import dev.ferry.bench.BenchCommand;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every option a command's parser takes is described in its {@code --help}: a line of the usage
 * text starts with it (after the indentation), not just the synopsis naming it.
 */
class HelpTextTest {
    private static final Pattern CASE = Pattern.compile("case (\"-[^:>]*?)\\s*->");
    private static final Pattern OPTION = Pattern.compile("\"(-[-a-zA-Z]+)\"");

    /** The options a parser's switch takes, from its source. */
    private static Set<String> parsed(Path source) throws IOException {
        Set<String> options = new LinkedHashSet<>();
        Matcher c = CASE.matcher(Files.readString(source));
        while (c.find()) {
            Matcher o = OPTION.matcher(c.group(1));
            while (o.find()) {
                options.add(o.group(1));
            }
        }
        return options;
    }

    private static void describesEvery(Path source, String usage) throws IOException {
        Set<String> options = parsed(source);
        assertTrue(options.size() >= 3, source + ": options found " + options);
        List<String> missing = new ArrayList<>();
        for (String o : options) {
            boolean described = usage.lines().anyMatch(l -> l.matches("\\s+(-[-a-zA-Z]+[^ ]*, )*" + Pattern.quote(o) + "\\b.*"));
            if (!described) {
                missing.add(o);
            }
        }
        assertEquals(List.of(), missing, source.getFileName() + ": options --help does not describe");
    }

    @Test
    void runDescribesEveryOption() throws IOException {
        describesEvery(Path.of("src/main/java/dev/ferry/cli/RunCommand.java"), RunCommand.USAGE);
    }

    @Test
    void soakDescribesEveryOption() throws IOException {
        describesEvery(Path.of("src/main/java/dev/ferry/cli/SoakCommand.java"), SoakCommand.USAGE);
    }

    @Test
    void agentDescribesEveryOption() throws IOException {
        describesEvery(Path.of("src/main/java/dev/ferry/cli/AgentCommand.java"), AgentCommand.USAGE);
    }

    @Test
    void benchDescribesEveryOption() throws IOException {
        describesEvery(Path.of("../ferry-bench/src/main/java/dev/ferry/bench/BenchOptions.java"), BenchCommand.USAGE);
    }
}
