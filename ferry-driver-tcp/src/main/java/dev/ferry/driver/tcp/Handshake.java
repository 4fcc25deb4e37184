package dev.ferry.driver.tcp;

import dev.ferry.spi.DriverUrl;

import java.nio.ByteBuffer;

/**
 * The connection handshake ({@link WireFormat}) as two small state machines, one per side, that
 * the set-up thread drives without blocking: each names the bytes to write next ({@link #out()})
 * and the buffer to fill next ({@link #in()}); once the first is written and the second full,
 * {@link #advance()} takes the next step. Lengths are checked against their limits before anything
 * is allocated by them, so a hostile peer cannot make the accepting side hold more than
 * {@link WireFormat#HS_FIXED} + {@link WireFormat#MAX_URL} bytes per connection, and nothing but a
 * bounded hello is read before the peer has proved the job key.
 */
abstract sealed class Handshake {
    /** What {@link #advance()} found. */
    enum Step {
        /** Write {@link #out()}, fill {@link #in()}, then advance again. */
        MORE,
        /** Accepted: the connection carries frames from now on. */
        DONE,
        /** Refused ({@link #rejection()}): close the connection, write nothing more. */
        REFUSED
    }

    final JobSecret secret;
    ByteBuffer out;
    ByteBuffer in;
    private String rejection;

    Handshake(JobSecret secret) {
        this.secret = secret;
    }

    /** Bytes to write before reading on, or null. */
    ByteBuffer out() {
        return out;
    }

    /** The buffer to fill before the next step, or null. */
    ByteBuffer in() {
        return in;
    }

    /** The next step: {@link #out()} is written and {@link #in()} full. */
    abstract Step advance();

    String rejection() {
        return rejection;
    }

    Step refuse(String why) {
        rejection = why;
        out = null;
        in = null;
        return Step.REFUSED;
    }

    static ByteBuffer hello(boolean request, int senderRank, int receiverRank, byte[] senderUrl, byte[] nonce) {
        ByteBuffer b = ByteBuffer.allocate(WireFormat.HS_FIXED + senderUrl.length);
        b.putInt(request ? WireFormat.HS_REQUEST_MAGIC : WireFormat.HS_MAGIC).putShort(WireFormat.VERSION).putShort((short) 0)
                .putInt(senderRank).putInt(receiverRank).putInt(senderUrl.length).put(nonce).put(senderUrl);
        return b.flip();
    }

    private static ByteBuffer whole(ByteBuffer b) {
        return b.duplicate().clear();
    }

    /** What the accepting side knows after a complete, valid handshake. */
    record Hello(int senderRank, int receiverRank, byte[] senderUrl, boolean request) {
    }

    /** The connecting side: hello, check the challenge, proof, reply. */
    static final class Connector extends Handshake {
        private final ByteBuffer hello;
        private boolean proved;

        Connector(JobSecret secret, boolean request, int senderRank, int receiverRank, byte[] senderUrl) {
            super(secret);
            this.hello = hello(request, senderRank, receiverRank, senderUrl, secret.nonce());
            out = hello.duplicate();
            in = ByteBuffer.allocate(WireFormat.CHALLENGE_BYTES);
        }

        @Override
        Step advance() {
            if (!proved) {
                ByteBuffer c = in.flip();
                if (c.getInt(0) != WireFormat.CHALLENGE_MAGIC) {
                    return refuse("not a Ferry handshake answer (bad magic)");
                }
                ByteBuffer nonce = c.duplicate().position(WireFormat.CHALLENGE_NONCE_OFFSET).limit(WireFormat.CHALLENGE_MAC_OFFSET);
                byte[] tag = new byte[JobSecret.MAC_BYTES];
                c.get(WireFormat.CHALLENGE_MAC_OFFSET, tag);
                if (!secret.verify(tag, JobSecret.Use.CHALLENGE, whole(hello), nonce)) {
                    return refuse("the peer could not prove it knows the job key: not this job's rank, or a man in the middle");
                }
                ByteBuffer proof = ByteBuffer.allocate(WireFormat.PROOF_BYTES);
                proof.putInt(WireFormat.PROOF_MAGIC).put(secret.mac(JobSecret.Use.PROOF, whole(hello), nonce));
                out = proof.flip();
                in = ByteBuffer.allocate(WireFormat.REPLY_BYTES);
                proved = true;
                return Step.MORE;
            }
            ByteBuffer r = in.flip();
            if (r.getInt(WireFormat.REPLY_MAGIC_OFFSET) != WireFormat.REPLY_MAGIC) {
                return refuse("bad handshake reply magic");
            }
            int status = r.getInt(WireFormat.REPLY_STATUS_OFFSET);
            return status == WireFormat.ACCEPTED ? Step.DONE : refuse("handshake refused with status " + status);
        }
    }

    /**
     * The accepting side: read and check the hello (its fixed part, then the URL it announces),
     * challenge, check the proof, reply.
     */
    static final class Acceptor extends Handshake {
        private final int ownRank;
        private int phase;
        private ByteBuffer fixed;
        private ByteBuffer hello;
        private ByteBuffer nonce;
        private Hello result;
        private boolean request;
        private int senderRank;
        private int receiverRank;

        Acceptor(JobSecret secret, int ownRank) {
            super(secret);
            this.ownRank = ownRank;
            fixed = ByteBuffer.allocate(WireFormat.HS_FIXED).limit(WireFormat.HS_RESERVED_OFFSET);
            in = fixed; // magic and version first: garbage is refused after its first bytes
        }

        @Override
        Step advance() {
            switch (phase) {
                case 0 -> {
                    int magic = fixed.getInt(WireFormat.HS_MAGIC_OFFSET);
                    if (magic != WireFormat.HS_MAGIC && magic != WireFormat.HS_REQUEST_MAGIC) {
                        boolean tlsRecord = fixed.get(0) == 0x16 && fixed.get(1) == 0x03; // a TLS handshake record
                        return refuse(tlsRecord ? "a TLS hello: FERRY_TCP_TLS is on there and off here" : "not a Ferry handshake (bad magic)");
                    }
                    request = magic == WireFormat.HS_REQUEST_MAGIC;
                    short version = fixed.getShort(WireFormat.HS_VERSION_OFFSET);
                    if (version != WireFormat.VERSION) {
                        return refuse("handshake version " + version + ", expected " + WireFormat.VERSION
                                + " (another Ferry version?)");
                    }
                    fixed.limit(WireFormat.HS_FIXED);
                    phase = 1;
                    return Step.MORE;
                }
                case 1 -> {
                    ByteBuffer b = fixed.flip();
                    senderRank = b.getInt(WireFormat.HS_SENDER_RANK_OFFSET);
                    receiverRank = b.getInt(WireFormat.HS_RECEIVER_RANK_OFFSET);
                    int urlLength = b.getInt(WireFormat.HS_URL_LENGTH_OFFSET);
                    if (urlLength < 1 || urlLength > WireFormat.MAX_URL) {
                        return refuse("URL length " + urlLength + " outside 1.." + WireFormat.MAX_URL);
                    }
                    if (senderRank < 0) {
                        return refuse("negative sender rank " + senderRank);
                    }
                    hello = ByteBuffer.allocate(WireFormat.HS_FIXED + urlLength).put(b.clear());
                    in = hello;
                    phase = 2;
                    return Step.MORE;
                }
                case 2 -> {
                    if (receiverRank != ownRank) {
                        return refuse("meant for rank " + receiverRank + ", this is rank " + ownRank);
                    }
                    byte[] url = new byte[hello.capacity() - WireFormat.HS_FIXED];
                    hello.get(WireFormat.HS_FIXED, url);
                    String bad = checkUrl(url, senderRank);
                    if (bad != null) {
                        return refuse(bad);
                    }
                    result = new Hello(senderRank, receiverRank, url, request);
                    nonce = ByteBuffer.wrap(secret.nonce());
                    ByteBuffer c = ByteBuffer.allocate(WireFormat.CHALLENGE_BYTES);
                    c.putInt(WireFormat.CHALLENGE_MAGIC).put(nonce.duplicate()).put(secret.mac(JobSecret.Use.CHALLENGE, whole(hello), nonce));
                    out = c.flip();
                    in = ByteBuffer.allocate(WireFormat.PROOF_BYTES);
                    phase = 3;
                    return Step.MORE;
                }
                case 3 -> {
                    ByteBuffer p = in.flip();
                    if (p.getInt(0) != WireFormat.PROOF_MAGIC) {
                        return refuse("not a Ferry handshake proof (bad magic)");
                    }
                    byte[] tag = new byte[JobSecret.MAC_BYTES];
                    p.get(WireFormat.PROOF_MAC_OFFSET, tag);
                    if (!secret.verify(tag, JobSecret.Use.PROOF, whole(hello), nonce)) {
                        return refuse("wrong job key (its proof does not match)");
                    }
                    ByteBuffer r = ByteBuffer.allocate(WireFormat.REPLY_BYTES);
                    r.putInt(WireFormat.REPLY_MAGIC).putInt(WireFormat.ACCEPTED);
                    out = r.flip();
                    in = null;
                    phase = 4;
                    return Step.MORE;
                }
                default -> {
                    return Step.DONE;
                }
            }
        }

        /** The sender's hello, once valid (before its proof is checked); null before. */
        Hello hello() {
            return result;
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
    }
}
