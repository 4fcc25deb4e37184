package dev.ferry.launch.hosts;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProxyWireTest {
    @Test
    void framesRoundTripInOrder() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(b);
        ProxyWire.write(out, ProxyWire.OUT, 3, new byte[] {'h', 'i'});
        ProxyWire.writeInt(out, ProxyWire.EXIT, 3, 137);
        assertEquals(2 * ProxyWire.HEADER + 2 + 4, b.size());
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(b.toByteArray()));
        ProxyWire.Frame f = ProxyWire.read(in);
        assertEquals(ProxyWire.OUT, f.type());
        assertEquals(3, f.rank());
        assertEquals("hi", f.text());
        assertEquals(137, ProxyWire.read(in).payloadInt());
        assertNull(ProxyWire.read(in));
    }

    @Test
    void aPayloadPastTheBoundIsRefused() {
        byte[] bad = {ProxyWire.OUT, 0, 0, 0, 0, 0x7f, 0, 0, 0};
        IOException e = assertThrows(IOException.class, () -> ProxyWire.read(new DataInputStream(new ByteArrayInputStream(bad))));
        assertTrue(e.getMessage().contains("payload"), e.getMessage());
    }

    @Test
    void mapsAndJobPartsRoundTrip() throws IOException {
        Map<String, String> m = Map.of("k1", "v1", "ключ", "значение");
        assertEquals(m, ProxyWire.map(ProxyWire.map(m)));
        JobPart p = new JobPart("123_abcd", "key", 6, List.of(2, 3), List.of(), List.of("-cp", "a:b", "Main", "x y"), Map.of("FERRY_DRIVERS", "tcp"));
        assertEquals(p, JobPart.decode(p.encode()));
        assertArrayEquals(p.encode(), JobPart.decode(p.encode()).encode());
    }

    @Test
    void aCutShortListIsRefused() {
        byte[] whole = ProxyWire.strings(List.of("abc", "def"));
        byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 2);
        assertThrows(IOException.class, () -> ProxyWire.strings(cut));
    }
}
