package dev.ferry.driver.tcp;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Both sides of the handshake, in memory: who knows the key gets in, nothing recorded or rewritten does. */
class HandshakeTest {
    private static final byte[] URL0 = "S127.0.0.1:40000/0".getBytes(StandardCharsets.US_ASCII);
    private static final JobSecret KEY = secret("the job's key");

    static JobSecret secret(String key) {
        return new JobSecret(key.getBytes(StandardCharsets.UTF_8));
    }

    /** One side and the bytes that reach it. */
    private static final class End {
        final Handshake h;
        final ArrayDeque<Byte> inbox = new ArrayDeque<>();
        final ByteArrayOutputStream sent = new ByteArrayOutputStream();
        Handshake.Step end;

        End(Handshake h) {
            this.h = h;
        }
    }

    /** Moves bytes between the two sides until both have ended or neither can move. */
    private static void pump(End a, End b) {
        boolean moved = true;
        while (moved && (a.end == null || b.end == null)) {
            moved = false;
            for (End[] pair : new End[][] {{a, b}, {b, a}}) {
                End me = pair[0], peer = pair[1];
                if (me.end != null) {
                    continue;
                }
                ByteBuffer out = me.h.out();
                while (out != null && out.hasRemaining()) {
                    byte x = out.get();
                    me.sent.write(x);
                    peer.inbox.add(x);
                    moved = true;
                }
                ByteBuffer in = me.h.in();
                while (in != null && in.hasRemaining() && !me.inbox.isEmpty()) {
                    in.put(me.inbox.poll());
                    moved = true;
                }
                if (in == null || !in.hasRemaining()) {
                    Handshake.Step s = me.h.advance();
                    if (s != Handshake.Step.MORE) {
                        me.end = s;
                    }
                    moved = true;
                }
            }
        }
    }

    private static Handshake.Connector connector(JobSecret s) {
        return new Handshake.Connector(s, false, 0, 1, URL0);
    }

    @Test
    void bothSidesWithTheKeyAreAccepted() {
        End c = new End(connector(KEY)), a = new End(new Handshake.Acceptor(KEY, 1));
        pump(c, a);
        assertEquals(Handshake.Step.DONE, c.end, String.valueOf(c.h.rejection()));
        assertEquals(Handshake.Step.DONE, a.end, String.valueOf(a.h.rejection()));
        Handshake.Hello hello = ((Handshake.Acceptor) a.h).hello();
        assertEquals(0, hello.senderRank());
        assertArrayEquals(URL0, hello.senderUrl());
        byte[] wire = c.sent.toByteArray();
        byte[] key = "the job's key".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i + key.length <= wire.length; i++) {
            assertFalse(Arrays.equals(wire, i, i + key.length, key, 0, key.length), "the key itself is never sent");
        }
    }

    @Test
    void aConnectorWithAnotherKeyIsRefusedAndRefusesTheAnswer() {
        End c = new End(connector(secret("another key"))), a = new End(new Handshake.Acceptor(KEY, 1));
        pump(c, a);
        assertEquals(Handshake.Step.REFUSED, c.end);
        assertTrue(c.h.rejection().contains("could not prove it knows the job key"), c.h.rejection());
        assertTrue(a.end == null, "the accepting side still waits for a proof, which never comes: its deadline closes it");
    }

    /** The proof a side with {@code s} would send for this hello and challenge, whatever it thinks of the challenge. */
    static byte[] forgedProof(JobSecret s, ByteBuffer hello, byte[] challenge) {
        ByteBuffer nonce = ByteBuffer.wrap(challenge, WireFormat.CHALLENGE_NONCE_OFFSET, JobSecret.NONCE_BYTES);
        ByteBuffer p = ByteBuffer.allocate(WireFormat.PROOF_BYTES);
        p.putInt(WireFormat.PROOF_MAGIC).put(s.mac(JobSecret.Use.PROOF, hello.duplicate(), nonce));
        return p.array();
    }

    /** Runs an accepting side on the given hello and proof; its end. */
    private static Handshake.Acceptor accept(byte[] hello, java.util.function.Function<byte[], byte[]> proofFor) {
        Handshake.Acceptor a = new Handshake.Acceptor(KEY, 1);
        int pos = 0;
        while (a.in() != null && a.in().remaining() <= hello.length - pos && a.out() == null) {
            int n = a.in().remaining();
            a.in().put(hello, pos, n);
            pos += n;
            if (a.advance() == Handshake.Step.REFUSED) {
                return a;
            }
        }
        byte[] challenge = DecoderFuzzTest.bytes(a.out());
        a.out().position(a.out().limit());
        a.in().put(proofFor.apply(challenge));
        a.advance();
        return a;
    }

    @Test
    void aProofMadeWithAnotherKeyIsRefused() {
        ByteBuffer hello = Handshake.hello(false, 0, 1, URL0, KEY.nonce());
        Handshake.Acceptor a = accept(DecoderFuzzTest.bytes(hello), ch -> forgedProof(secret("another key"), hello, ch));
        assertEquals("wrong job key (its proof does not match)", a.rejection());
        Handshake.Acceptor good = accept(DecoderFuzzTest.bytes(hello), ch -> forgedProof(KEY, hello, ch));
        assertEquals(null, good.rejection(), "the same hello with the key's proof passes");
    }

    @Test
    void aRecordedHandshakeReplayedIsRefused() {
        End c = new End(connector(KEY)), a = new End(new Handshake.Acceptor(KEY, 1));
        pump(c, a);
        assertEquals(Handshake.Step.DONE, a.end);
        byte[] recorded = c.sent.toByteArray(); // hello, then proof
        byte[] hello = Arrays.copyOf(recorded, recorded.length - WireFormat.PROOF_BYTES);
        byte[] proof = Arrays.copyOfRange(recorded, hello.length, recorded.length);
        Handshake.Acceptor replayed = accept(hello, challenge -> proof);
        assertEquals("wrong job key (its proof does not match)", replayed.rejection(), "a fresh nonce defeats the recording");

        // and the accepting side's recorded answer, replayed to a new connector, fails there
        End c2 = new End(connector(KEY));
        byte[] answer = a.sent.toByteArray();
        c2.h.out().position(c2.h.out().limit());
        c2.h.in().put(answer, 0, WireFormat.CHALLENGE_BYTES);
        assertEquals(Handshake.Step.REFUSED, c2.h.advance());
    }

    @Test
    void theAnswersTagServesNotAsAProof() {
        ByteBuffer hello = Handshake.hello(false, 0, 1, URL0, KEY.nonce());
        Handshake.Acceptor a = accept(DecoderFuzzTest.bytes(hello), challenge -> {
            ByteBuffer p = ByteBuffer.allocate(WireFormat.PROOF_BYTES); // reflect the challenge's own tag
            p.putInt(WireFormat.PROOF_MAGIC).put(challenge, WireFormat.CHALLENGE_MAC_OFFSET, JobSecret.MAC_BYTES);
            return p.array();
        });
        assertEquals("wrong job key (its proof does not match)", a.rejection());
    }

    @Test
    void aManInTheMiddleWhoRewritesTheHelloIsRefusedByBothEnds() {
        // it relays, but puts its own URL in the hello so that the accepting side would talk to it
        End c = new End(connector(KEY)), a = new End(new Handshake.Acceptor(KEY, 1));
        ByteBuffer out = c.h.out();
        byte[] hello = DecoderFuzzTest.bytes(out);
        out.position(out.limit());
        byte[] forged = hello.clone();
        forged[forged.length - 3] = (byte) '9'; // S127.0.0.1:40000/0 -> S127.0.0.1:40900/0, still well formed
        for (int pos = 0; a.h.out() == null; ) {
            int n = a.h.in().remaining();
            a.h.in().put(forged, pos, n);
            pos += n;
            assertEquals(Handshake.Step.MORE, a.h.advance());
        }
        byte[] challenge = DecoderFuzzTest.bytes(a.h.out());
        c.h.in().put(challenge);
        assertEquals(Handshake.Step.REFUSED, c.h.advance(), "the connector's hello was not the one answered");
        // nor can it make the proof for its forged hello without the key
        a.h.out().position(a.h.out().limit());
        a.h.in().put(forgedProof(secret("a guess"), ByteBuffer.wrap(forged), challenge));
        assertEquals(Handshake.Step.REFUSED, a.h.advance());
    }

    @Test
    void aVersionMismatchIsNamed() {
        byte[] hello = DecoderFuzzTest.bytes(Handshake.hello(false, 0, 1, URL0, KEY.nonce()));
        hello[WireFormat.HS_VERSION_OFFSET + 1] = 1;
        Handshake.Acceptor a = accept(hello, ch -> new byte[0]);
        assertTrue(a.rejection().startsWith("handshake version 1, expected 2"), a.rejection());
    }
}
