package dev.ferry.launch.pmi;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PairBlobTest {
    @Test
    void pairsComeBackInOrderWithAnyCharacters() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("ferry.url.0.tcp", "tcp1:127.0.0.1:4711;=\n\u00e9");
        m.put("empty", "");
        m.put("ferry.node.0", "vm/1a2b3c4d");
        assertEquals(m, PairBlob.decode(PairBlob.encode(m)));
        assertEquals(java.util.List.copyOf(m.keySet()), java.util.List.copyOf(PairBlob.decode(PairBlob.encode(m)).keySet()));
        assertEquals(Map.of(), PairBlob.decode(PairBlob.encode(Map.of())));
    }

    @Test
    void aMalformedBlobNamesItsFault() {
        byte[] good = PairBlob.encode(Map.of("k", "value"));
        IllegalArgumentException cut = assertThrows(IllegalArgumentException.class, () -> PairBlob.decode(java.util.Arrays.copyOf(good, good.length - 2)));
        assertTrue(cut.getMessage().contains("value of k"), cut.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PairBlob.decode(new byte[] {0, 0}));
        byte[] longer = java.util.Arrays.copyOf(good, good.length + 1);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PairBlob.decode(longer)).getMessage().contains("after its 1 pairs"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PairBlob.decode(new byte[] {(byte) 0x80, 0, 0, 0}))
                .getMessage().contains("negative"));
    }
}
