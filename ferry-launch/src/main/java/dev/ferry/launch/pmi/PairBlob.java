package dev.ferry.launch.pmi;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Key-value pairs as one byte string, so that a bootstrap whose store is per process (PMIx: a
 * value belongs to the rank that put it) can offer PMI's one shared space: each rank puts all its
 * pairs of a fence round as one value. Layout: a u32 count, then per pair a u32 key length, the
 * key's UTF-8 bytes, a u32 value length and the value's UTF-8 bytes (big-endian lengths).
 *
 * <pre>{@code
 * byte[] b = PairBlob.encode(Map.of("ferry.node.0", "vm/1a2b"));
 * Map<String, String> m = PairBlob.decode(b);
 * }</pre>
 */
final class PairBlob {
    private PairBlob() {
    }

    static byte[] encode(Map<String, String> pairs) {
        int size = 4;
        Map<byte[], byte[]> raw = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : pairs.entrySet()) {
            byte[] k = e.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] v = e.getValue().getBytes(StandardCharsets.UTF_8);
            raw.put(k, v);
            size += 8 + k.length + v.length;
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putInt(raw.size());
        raw.forEach((k, v) -> b.putInt(k.length).put(k).putInt(v.length).put(v));
        return b.array();
    }

    /** The pairs, in the order they were encoded; an IllegalArgumentException naming the fault for a malformed blob. */
    static Map<String, String> decode(byte[] blob) {
        ByteBuffer b = ByteBuffer.wrap(blob);
        Map<String, String> out = new LinkedHashMap<>();
        int n = take(b, "pair count");
        for (int i = 0; i < n; i++) {
            String k = string(b, "key " + i);
            out.put(k, string(b, "value of " + k));
        }
        if (b.hasRemaining()) {
            throw new IllegalArgumentException("key-value blob: " + b.remaining() + " bytes after its " + n + " pairs");
        }
        return out;
    }

    private static String string(ByteBuffer b, String what) {
        int len = take(b, what + " length");
        if (len > b.remaining()) {
            throw new IllegalArgumentException("key-value blob: " + what + " of " + len + " bytes, " + b.remaining() + " left");
        }
        byte[] s = new byte[len];
        b.get(s);
        return new String(s, StandardCharsets.UTF_8);
    }

    private static int take(ByteBuffer b, String what) {
        if (b.remaining() < 4) {
            throw new IllegalArgumentException("key-value blob ends before its " + what);
        }
        int v = b.getInt();
        if (v < 0) {
            throw new IllegalArgumentException("key-value blob: negative " + what + " " + v);
        }
        return v;
    }
}
