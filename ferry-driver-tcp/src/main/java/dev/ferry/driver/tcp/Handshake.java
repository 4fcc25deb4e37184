package dev.ferry.driver.tcp;

import dev.ferry.spi.DriverUrl;

import java.nio.ByteBuffer;
import java.security.MessageDigest;

/**
 * The connection handshake ({@link WireFormat}): encoding on the connecting side, incremental and
 * bounds-checked decoding on the accepting side. Lengths are checked against their limits before
 * the variable part is allocated, so a hostile peer cannot make us allocate more than
 * {@link WireFormat#MAX_KEY} + {@link WireFormat#MAX_URL} bytes per connection.
 */
final class Handshake {
    private Handshake() {
    }

    static ByteBuffer encode(byte[] key, int senderRank, int receiverRank, byte[] senderUrl) {
        return encode(WireFormat.HS_MAGIC, key, senderRank, receiverRank, senderUrl);
    }

    /** A connection request: the same fields, asking the receiver to connect back. */
    static ByteBuffer encodeRequest(byte[] key, int senderRank, int receiverRank, byte[] senderUrl) {
        return encode(WireFormat.HS_REQUEST_MAGIC, key, senderRank, receiverRank, senderUrl);
    }

    private static ByteBuffer encode(int magic, byte[] key, int senderRank, int receiverRank, byte[] senderUrl) {
        ByteBuffer b = ByteBuffer.allocate(WireFormat.HS_FIXED + key.length + senderUrl.length);
        b.putInt(magic).putShort(WireFormat.VERSION).putShort((short) key.length)
                .putInt(senderRank).putInt(receiverRank).putInt(senderUrl.length).put(key).put(senderUrl);
        return b.flip();
    }

    static ByteBuffer reply() {
        ByteBuffer b = ByteBuffer.allocate(WireFormat.REPLY_BYTES);
        b.putInt(WireFormat.REPLY_MAGIC).putInt(WireFormat.ACCEPTED);
        return b.flip();
    }

    /** Null when {@code reply} (8 bytes, flipped) accepts the connection, else why not. */
    static String checkReply(ByteBuffer reply) {
        if (reply.getInt(WireFormat.REPLY_MAGIC_OFFSET) != WireFormat.REPLY_MAGIC) {
            return "bad handshake reply magic";
        }
        int status = reply.getInt(WireFormat.REPLY_STATUS_OFFSET);
        return status == WireFormat.ACCEPTED ? null : "handshake refused with status " + status;
    }

    /** What the accepting side knows after a complete, valid handshake. */
    record Hello(int senderRank, int receiverRank, byte[] senderUrl, boolean request) {
    }

    /**
     * Incremental decoder for one incoming connection: {@link #buffer()} to read into, then
     * {@link #advance()} after each read.
     */
    static final class Decoder {
        private final byte[] expectedKey;
        private final int ownRank;
        private ByteBuffer buf = ByteBuffer.allocate(WireFormat.HS_FIXED);
        private boolean fixedDone;
        private int keyLength;
        private int senderRank;
        private int receiverRank;
        private boolean request;
        private String rejection;
        private Hello hello;

        Decoder(byte[] expectedKey, int ownRank) {
            this.expectedKey = expectedKey;
            this.ownRank = ownRank;
        }

        ByteBuffer buffer() {
            return buf;
        }

        /** Processes what was read; true when finished (see {@link #hello()} and {@link #rejection()}). */
        boolean advance() {
            if (buf.hasRemaining()) {
                return false;
            }
            if (!fixedDone) {
                buf.flip();
                int magic = buf.getInt(WireFormat.HS_MAGIC_OFFSET);
                if (magic != WireFormat.HS_MAGIC && magic != WireFormat.HS_REQUEST_MAGIC) {
                    return reject("not a Ferry handshake (bad magic)");
                }
                request = magic == WireFormat.HS_REQUEST_MAGIC;
                short version = buf.getShort(WireFormat.HS_VERSION_OFFSET);
                if (version != WireFormat.VERSION) {
                    return reject("handshake version " + version + ", expected " + WireFormat.VERSION);
                }
                keyLength = buf.getShort(WireFormat.HS_KEY_LENGTH_OFFSET) & 0xffff;
                senderRank = buf.getInt(WireFormat.HS_SENDER_RANK_OFFSET);
                receiverRank = buf.getInt(WireFormat.HS_RECEIVER_RANK_OFFSET);
                int urlLength = buf.getInt(WireFormat.HS_URL_LENGTH_OFFSET);
                if (keyLength > WireFormat.MAX_KEY) {
                    return reject("job key length " + keyLength + " over " + WireFormat.MAX_KEY);
                }
                if (urlLength < 1 || urlLength > WireFormat.MAX_URL) {
                    return reject("URL length " + urlLength + " outside 1.." + WireFormat.MAX_URL);
                }
                if (senderRank < 0) {
                    return reject("negative sender rank " + senderRank);
                }
                fixedDone = true;
                buf = ByteBuffer.allocate(keyLength + urlLength);
                return false;
            }
            buf.flip();
            byte[] key = new byte[keyLength];
            buf.get(key);
            if (!MessageDigest.isEqual(key, expectedKey)) { // constant time: no timing oracle on the key
                return reject("wrong job key");
            }
            if (receiverRank != ownRank) {
                return reject("meant for rank " + receiverRank + ", this is rank " + ownRank);
            }
            byte[] url = new byte[buf.remaining()];
            buf.get(url);
            String bad = checkUrl(url, senderRank);
            if (bad != null) {
                return reject(bad);
            }
            hello = new Hello(senderRank, receiverRank, url, request);
            return true;
        }

        /**
         * Null when {@code url} is a tcp URL of rank {@code senderRank}, else what is wrong: what a
         * peer says of itself is checked here, where a refusal ends only this connection, not
         * where the engine would trip over it later.
         */
        static String checkUrl(byte[] url, int senderRank) {
            try {
                for (byte[] part : DriverUrl.decode(url).parts()) {
                    int rank = TcpAddress.parse(part).rank();
                    if (rank != senderRank) {
                        return "the sender's URL names rank " + rank + ", its handshake rank " + senderRank;
                    }
                }
                return null;
            } catch (IllegalArgumentException e) {
                return "malformed sender URL: " + e.getMessage();
            }
        }

        private boolean reject(String why) {
            rejection = why;
            return true;
        }

        Hello hello() {
            return hello;
        }

        String rejection() {
            return rejection;
        }
    }
}
