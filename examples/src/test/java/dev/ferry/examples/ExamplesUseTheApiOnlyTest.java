package dev.ferry.examples;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every example is a program a user could write: it names nothing of Ferry's but the package dev.ferry. */
class ExamplesUseTheApiOnlyTest {
    private static final Pattern FERRY_NAME = Pattern.compile("\\bdev\\.ferry\\.([a-z]+)\\.");

    @Test
    void examplesNameOnlyTheApplicationApi() throws IOException {
        List<String> found = new ArrayList<>();
        int files = 0;
        try (Stream<Path> sources = Files.walk(Path.of("src/main/java"))) {
            for (Path p : sources.filter(f -> f.toString().endsWith(".java")).toList()) {
                files++;
                Matcher m = FERRY_NAME.matcher(Files.readString(p));
                while (m.find()) {
                    if (!m.group(1).equals("examples")) {
                        found.add(p.getFileName() + ": dev.ferry." + m.group(1));
                    }
                }
            }
        }
        assertTrue(files >= 10, "examples found: " + files);
        assertEquals(List.of(), found, "examples reach below the application API");
    }
}
