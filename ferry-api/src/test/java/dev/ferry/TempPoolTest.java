package dev.ferry;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.*;

/** Temporaries of collectives: small ones kept for reuse; large ones mapped for themselves and unmapped when given back. */
class TempPoolTest {

    @Test
    void aSmallBlockIsKeptAndGivenAgain() {
        TempPool pool = new TempPool();
        MemorySegment m = pool.take(1000);
        assertEquals(1024, m.byteSize(), "its power-of-two class");
        pool.give(m);
        assertEquals(m.address(), pool.take(1000).address(), "the same block again");
    }

    @Test
    void aLargeBlockIsMappedZeroedAndUnmappedWhenGivenBack() throws Exception {
        TempPool pool = new TempPool();
        long bytes = TempPool.MAX_HELD + 12_345;
        MemorySegment m = pool.take(bytes);
        assertEquals(bytes, m.byteSize(), "exactly its size");
        assertEquals(-1, m.mismatch(MemorySegment.ofArray(new byte[(int) bytes])), "zeroed");
        m.set(ValueLayout.JAVA_BYTE, bytes - 1, (byte) 7); // writable to its last byte
        assertTrue(mapped(m.address()), "a mapping of its own starts at its address");
        pool.give(m);
        assertFalse(mapped(m.address()), "unmapped when given back");
    }

    /** Whether a mapping of this process starts at {@code address} (/proc/self/maps). */
    private static boolean mapped(long address) throws java.io.IOException {
        String start = HexFormat.of().toHexDigits(address).replaceFirst("^0+", "");
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().anyMatch(l -> l.startsWith(start + "-"));
    }
}
