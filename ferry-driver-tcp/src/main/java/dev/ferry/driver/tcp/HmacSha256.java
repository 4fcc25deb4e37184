package dev.ferry.driver.tcp;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;

/**
 * HMAC-SHA256 (RFC 2104) over the JDK's SHA-256 digest, for {@link JobSecret}'s tags. The JCE's
 * {@code Mac} gives the same bytes (the tests compare them), but its first use costs each rank
 * 40 to 80 ms of CPU (the crypto policy files, the providers before SunJCE), as much as the rest of
 * tcp's set-up; the digest comes from the first provider, which a rank loads anyway.
 *
 * <pre>{@code
 * byte[] tag = HmacSha256.tag(key, ByteBuffer.wrap(message));
 * }</pre>
 */
final class HmacSha256 {
    static final int TAG_BYTES = 32;
    private static final int BLOCK_BYTES = 64;
    private static final byte INNER_PAD = 0x36;
    private static final byte OUTER_PAD = 0x5c;

    private HmacSha256() {
    }

    /** The tag of {@code parts} (each read from its position to its limit, positions untouched) under {@code key}. */
    static byte[] tag(byte[] key, ByteBuffer... parts) {
        MessageDigest d = sha256();
        byte[] block = new byte[BLOCK_BYTES];
        byte[] k = key.length > BLOCK_BYTES ? d.digest(key) : key; // a long key is its digest (RFC 2104, 2)
        System.arraycopy(k, 0, block, 0, k.length);
        d.update(padded(block, INNER_PAD));
        for (ByteBuffer p : parts) {
            d.update(p.duplicate());
        }
        byte[] inner = d.digest();
        d.update(padded(block, OUTER_PAD));
        return d.digest(inner);
    }

    private static byte[] padded(byte[] block, byte pad) {
        byte[] b = new byte[BLOCK_BYTES];
        for (int i = 0; i < BLOCK_BYTES; i++) {
            b[i] = (byte) (block[i] ^ pad);
        }
        return b;
    }

    /** A SHA-256 digest (the first provider's). */
    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
