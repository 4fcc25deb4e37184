package dev.ferry.launch.pmi;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Replays a recorded PMI conversation: each write of the client must be exactly the next
 * recorded request, and each recorded reply is what the client then reads.
 */
final class ScriptedTransport implements PmiTransport {
    private record Step(boolean fromClient, byte[] bytes) {
    }

    private final Deque<Step> script = new ArrayDeque<>();
    private byte[] pending = new byte[0];
    private int pendingPos;
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    boolean closed;

    ScriptedTransport client(String s) {
        return client(s.getBytes(StandardCharsets.US_ASCII));
    }

    ScriptedTransport client(byte[] b) {
        script.add(new Step(true, b));
        return this;
    }

    ScriptedTransport server(String s) {
        return server(s.getBytes(StandardCharsets.US_ASCII));
    }

    ScriptedTransport server(byte[] b) {
        script.add(new Step(false, b));
        return this;
    }

    /** A PMI-2 message as a server sends it: the 6-character length, then the body. */
    static byte[] v2(String body) {
        return (String.format("%6d", body.length()) + body).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void write(byte[] bytes) {
        written.writeBytes(bytes);
        Step s = script.poll();
        String got = new String(bytes, StandardCharsets.US_ASCII);
        if (s == null || !s.fromClient()) {
            throw new AssertionError("client sent '" + got + "' where the recording has " + (s == null ? "nothing" : "a server reply"));
        }
        String want = new String(s.bytes(), StandardCharsets.US_ASCII);
        if (!want.equals(got)) {
            throw new AssertionError("client sent '" + got + "', the recording says '" + want + "'");
        }
    }

    @Override
    public int read(byte[] buf, int off, int len) {
        if (pendingPos == pending.length) {
            Step s = script.poll();
            if (s == null) {
                return -1;
            }
            if (s.fromClient()) {
                throw new AssertionError("client reads where the recording expects it to send '"
                        + new String(s.bytes(), StandardCharsets.US_ASCII) + "'");
            }
            pending = s.bytes();
            pendingPos = 0;
        }
        int n = Math.min(len, pending.length - pendingPos);
        System.arraycopy(pending, pendingPos, buf, off, n);
        pendingPos += n;
        return n;
    }

    boolean finished() {
        return script.isEmpty() && pendingPos == pending.length;
    }

    @Override
    public void close() {
        closed = true;
    }
}
