package dev.ferry.driver.tcp;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;

/**
 * What a rank proves with the job key, never sending it: HMAC-SHA256 tags ({@link HmacSha256}) under keys derived from
 * it, one per use (the handshake's two directions, the TLS certificate), so that a tag made for one
 * use is worth nothing in another. Nonces come from a {@link SecureRandom}: a recorded exchange
 * meets a fresh nonce when replayed.
 */
final class JobSecret {
    static final int NONCE_BYTES = 16;
    static final int MAC_BYTES = HmacSha256.TAG_BYTES;

    /** The uses, as labels of the derived keys. */
    enum Use {
        /** The accepting side's answer to a hello: it too knows the key. */
        CHALLENGE,
        /** The connecting side's proof over the accepting side's nonce. */
        PROOF,
        /** A TLS certificate's public key, named in its subject. */
        CERTIFICATE
    }

    private final byte[] jobKey;
    // made at the first connection, not at start: a job that never uses tcp (one host) pays
    // nothing for the security providers, the digests and the seeding
    private byte[][] keys;
    private SecureRandom random;

    /** From the job's key; an empty one (a driver used alone, outside a job) still derives keys, which any such peer shares. */
    JobSecret(byte[] jobKey) {
        this.jobKey = jobKey.clone();
    }

    private synchronized byte[] key(Use use) {
        if (keys == null) {
            byte[][] k = new byte[Use.values().length][];
            for (Use u : Use.values()) {
                k[u.ordinal()] = derive(jobKey, u);
            }
            keys = k;
        }
        return keys[use.ordinal()];
    }

    private static byte[] derive(byte[] jobKey, Use use) {
        MessageDigest d = HmacSha256.sha256();
        d.update(("ferry tcp " + use.name().toLowerCase(java.util.Locale.ROOT) + '\0').getBytes(StandardCharsets.US_ASCII));
        d.update(jobKey);
        return d.digest();
    }

    synchronized byte[] nonce() {
        if (random == null) {
            random = new SecureRandom();
        }
        byte[] n = new byte[NONCE_BYTES];
        random.nextBytes(n);
        return n;
    }

    /** The tag of {@code parts} (each read from its position to its limit, positions untouched) for {@code use}. */
    byte[] mac(Use use, ByteBuffer... parts) {
        return HmacSha256.tag(key(use), parts);
    }

    /** Whether {@code tag} is the tag of {@code parts}, compared in constant time (no timing oracle). */
    boolean verify(byte[] tag, Use use, ByteBuffer... parts) {
        return MessageDigest.isEqual(tag, mac(use, parts));
    }
}
