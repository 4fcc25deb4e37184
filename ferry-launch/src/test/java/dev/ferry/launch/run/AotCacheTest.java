package dev.ferry.launch.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AotCacheTest {
    @Test
    void onlyTheCachesUsedLastAreKeptWithTheirLinks(@TempDir Path dir) throws Exception {
        for (int i = 0; i < 5; i++) { // cache i used at time i: 0 the longest ago
            Path cache = Files.writeString(dir.resolve("c" + i + ".aot"), "cache " + i);
            Files.setLastModifiedTime(cache, FileTime.fromMillis(1_000_000L * (i + 1)));
            Files.createSymbolicLink(dir.resolve("cp-" + i + ".aot"), cache.getFileName());
        }
        Files.writeString(dir.resolve("c9.aot.123-456.tmp"), "a training's output"); // not a cache
        AotCache.prune(dir, 3);
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of("c2.aot", "c3.aot", "c4.aot", "c9.aot.123-456.tmp", "cp-2.aot", "cp-3.aot", "cp-4.aot"),
                    left.map(p -> p.getFileName().toString()).sorted().toList());
        }
        AotCache.prune(dir, 3);
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(7, left.count(), "nothing more to remove");
        }
    }
}
