package dev.ferry.spi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * The address of a driver context, as returned by {@link DriverContext#init()} and handed by the
 * launcher to every other process (seed 000). Opaque, binary-safe bytes.
 *
 * <p>A <em>wide</em> URL packs several URLs (one per network interface, say) into one; a driver
 * produces one only when {@link Hints#wideUrlSupport()} is granted, and must work with a single
 * URL otherwise (seed 000: launchers such as PMI-2 do not support wide URLs).
 *
 * <p>Encoding (see {@link #encoded()}), all integers big-endian:
 * <pre>
 *   single: byte 'S', then the URL bytes
 *   wide:   byte 'W', u16 count, then count times (u32 length, bytes)
 * </pre>
 *
 * <pre>{@code
 * DriverUrl one = DriverUrl.single("127.0.0.1:4000".getBytes(US_ASCII));
 * DriverUrl wide = DriverUrl.wide(List.of(a, b));
 * for (byte[] part : DriverUrl.parse(wide.toText()).parts()) { ... }
 * }</pre>
 */
public final class DriverUrl {
    private static final byte SINGLE = 'S';
    private static final byte WIDE = 'W';
    /** Bound on parts of a wide URL: keeps a corrupt count from driving a huge allocation. */
    public static final int MAX_PARTS = 1024;

    private final byte[] encoded;

    private DriverUrl(byte[] encoded) {
        this.encoded = encoded;
    }

    /** A URL made of one driver address. */
    public static DriverUrl single(byte[] address) {
        byte[] e = new byte[address.length + 1];
        e[0] = SINGLE;
        System.arraycopy(address, 0, e, 1, address.length);
        return new DriverUrl(e);
    }

    /** A wide URL packing several driver addresses, in order. */
    public static DriverUrl wide(List<byte[]> addresses) {
        if (addresses.isEmpty() || addresses.size() > MAX_PARTS) {
            throw new IllegalArgumentException("a wide URL packs 1 to " + MAX_PARTS + " addresses, not " + addresses.size());
        }
        int len = 3;
        for (byte[] a : addresses) {
            len += 4 + a.length;
        }
        ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.BIG_ENDIAN);
        b.put(WIDE).putShort((short) addresses.size());
        for (byte[] a : addresses) {
            b.putInt(a.length).put(a);
        }
        return new DriverUrl(b.array());
    }

    /** Decodes {@link #encoded()} bytes, checking every length; throws IllegalArgumentException on malformed input. */
    public static DriverUrl decode(byte[] encoded) {
        DriverUrl url = new DriverUrl(encoded.clone());
        url.parts(); // validates
        return url;
    }

    /** Decodes the text form produced by {@link #toText()}. */
    public static DriverUrl parse(String text) {
        try {
            return decode(Base64.getUrlDecoder().decode(text));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a driver URL: '" + text + "': " + e.getMessage(), e);
        }
    }

    public boolean isWide() {
        return encoded[0] == WIDE;
    }

    /** The driver addresses: one for a single URL, several for a wide one. */
    public List<byte[]> parts() {
        if (encoded.length == 0) {
            throw new IllegalArgumentException("empty URL");
        }
        if (encoded[0] == SINGLE) {
            return List.of(Arrays.copyOfRange(encoded, 1, encoded.length));
        }
        if (encoded[0] != WIDE) {
            throw new IllegalArgumentException("unknown URL kind byte " + (encoded[0] & 0xff));
        }
        ByteBuffer b = ByteBuffer.wrap(encoded).order(ByteOrder.BIG_ENDIAN);
        b.get();
        if (b.remaining() < 2) {
            throw new IllegalArgumentException("wide URL truncated before its count");
        }
        int n = b.getShort() & 0xffff;
        if (n == 0 || n > MAX_PARTS) {
            throw new IllegalArgumentException("wide URL count " + n + " outside 1.." + MAX_PARTS);
        }
        List<byte[]> parts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            if (b.remaining() < 4) {
                throw new IllegalArgumentException("wide URL truncated before the length of part " + i);
            }
            int len = b.getInt();
            if (len < 0 || len > b.remaining()) {
                throw new IllegalArgumentException("wide URL part " + i + " length " + len + " exceeds the " + b.remaining() + " bytes left");
            }
            byte[] p = new byte[len];
            b.get(p);
            parts.add(p);
        }
        if (b.hasRemaining()) {
            throw new IllegalArgumentException("wide URL has " + b.remaining() + " trailing bytes");
        }
        return parts;
    }

    /** The first address: what a driver uses when it does not handle several. */
    public byte[] first() {
        return parts().get(0);
    }

    /** The binary form, for a launcher's key-value space. */
    public byte[] encoded() {
        return encoded.clone();
    }

    /** A text form safe for environment variables and PMI values (URL-safe base64, no padding). */
    public String toText() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(encoded);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DriverUrl u && Arrays.equals(u.encoded, encoded);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(encoded);
    }

    @Override
    public String toString() {
        return toText();
    }
}
