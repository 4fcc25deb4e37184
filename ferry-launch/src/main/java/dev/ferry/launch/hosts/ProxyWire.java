package dev.ferry.launch.hosts;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The frames between {@code ferry run} and a host's proxy, over the proxy's standard input and
 * output (the ssh session, or the pipes of a proxy on this host). Every frame is
 * <pre>
 *   offset 0  u8    type      one of the constants below
 *   offset 1  i32   rank      the global rank it concerns, or -1
 *   offset 5  i32   length    of the payload, 0 to {@link #MAX_PAYLOAD}
 *   offset 9  bytes payload
 * </pre>
 * big-endian. Payloads of lists and maps are a count followed by that many strings, each an i32
 * byte length and UTF-8 bytes.
 */
public final class ProxyWire {
    /** Bytes before the payload. */
    public static final int HEADER = 9;
    /** The largest payload a frame carries (a rank's output is sent in pieces below it). */
    public static final int MAX_PAYLOAD = 1 << 24;

    // launcher -> proxy
    /** The job: {@link JobPart}'s fields. */
    public static final byte SPEC = 1;
    /** Bytes for the rank's standard input; an empty payload ends it. */
    public static final byte STDIN = 2;
    /** A fence completed everywhere: the puts of every host made before it (a map). */
    public static final byte FENCE_OUT = 3;
    /** End the ranks: rank 0 for SIGTERM, 1 for SIGKILL. */
    public static final byte TERMINATE = 4;
    /** The job timed out: the ranks print their threads, and the node's services theirs (sent back as NOTEs). */
    public static final byte DUMP = 5;

    // proxy -> launcher
    /** The proxy runs: its Ferry version and host name (a list). */
    public static final byte HELLO = 16;
    /** Bytes the rank wrote to its standard output. */
    public static final byte OUT = 17;
    /** Bytes the rank wrote to its standard error. */
    public static final byte ERR = 18;
    /** This host's ranks are all in a fence: their puts since the last (a map). */
    public static final byte FENCE_IN = 20;
    /** The rank asked to abort the job: payload its code (i32). */
    public static final byte ABORT = 21;
    /** The rank's process ended: payload its status (i32), after all its output. */
    public static final byte EXIT = 22;
    /** The proxy could not do its part: payload one line saying why. */
    public static final byte FAILED = 23;
    /**
     * Every rank here ended well and this host has no ahead-of-time cache for them yet: the proxy
     * makes one before it exits (a training job), so the launcher waits longer for its end.
     */
    public static final byte TRAINING = 24;
    /** A line for the user about this host's part (an agent the proxy started): the launcher prints it. */
    public static final byte NOTE = 25;

    private ProxyWire() {
    }

    /** One frame as read. */
    public record Frame(byte type, int rank, byte[] payload) {
        public int payloadInt() {
            return ByteArrays.readInt(payload);
        }

        public String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }
    }

    /** Writes one frame; callers on several threads share one stream by synchronising on it. */
    public static void write(DataOutputStream out, byte type, int rank, byte[] payload, int off, int len) throws IOException {
        synchronized (out) {
            out.writeByte(type);
            out.writeInt(rank);
            out.writeInt(len);
            out.write(payload, off, len);
            out.flush();
        }
    }

    public static void write(DataOutputStream out, byte type, int rank, byte[] payload) throws IOException {
        write(out, type, rank, payload, 0, payload.length);
    }

    public static void writeInt(DataOutputStream out, byte type, int rank, int value) throws IOException {
        write(out, type, rank, ByteArrays.ofInt(value));
    }

    /** The next frame, or null at the stream's end between frames. */
    public static Frame read(DataInputStream in) throws IOException {
        int type = in.read();
        if (type < 0) {
            return null;
        }
        int rank = in.readInt();
        int len = in.readInt();
        if (len < 0 || len > MAX_PAYLOAD) {
            throw new IOException("a frame of type " + type + " says its payload is " + len + " bytes (at most " + MAX_PAYLOAD + ")");
        }
        byte[] payload = new byte[len];
        in.readFully(payload);
        return new Frame((byte) type, rank, payload);
    }

    /** Strings as a payload. */
    public static byte[] strings(List<String> values) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (DataOutputStream d = new DataOutputStream(b)) {
            d.writeInt(values.size());
            for (String v : values) {
                byte[] s = v.getBytes(StandardCharsets.UTF_8);
                d.writeInt(s.length);
                d.write(s);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e); // in memory
        }
        return b.toByteArray();
    }

    /** A payload of strings. */
    public static List<String> strings(byte[] payload) throws IOException {
        try (DataInputStream d = new DataInputStream(new ByteArrayInputStream(payload))) {
            int n = d.readInt();
            if (n < 0 || n > payload.length / 4) {
                throw new IOException("a list of " + n + " strings in " + payload.length + " bytes");
            }
            List<String> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int len = d.readInt();
                if (len < 0 || len > payload.length) {
                    throw new IOException("a string of " + len + " bytes in " + payload.length);
                }
                byte[] s = new byte[len];
                d.readFully(s);
                out.add(new String(s, StandardCharsets.UTF_8));
            }
            return out;
        } catch (EOFException e) {
            throw new IOException("a list of strings cut short", e);
        }
    }

    /** A map as a payload: keys and values alternating. */
    public static byte[] map(Map<String, String> values) {
        List<String> flat = new ArrayList<>(values.size() * 2);
        values.forEach((k, v) -> {
            flat.add(k);
            flat.add(v);
        });
        return strings(flat);
    }

    public static Map<String, String> map(byte[] payload) throws IOException {
        List<String> flat = strings(payload);
        if (flat.size() % 2 != 0) {
            throw new IOException("a map of " + flat.size() + " strings (keys and values alternate)");
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < flat.size(); i += 2) {
            m.put(flat.get(i), flat.get(i + 1));
        }
        return m;
    }

    /** Big-endian ints in byte arrays. */
    static final class ByteArrays {
        private ByteArrays() {
        }

        static byte[] ofInt(int v) {
            return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
        }

        static int readInt(byte[] b) {
            if (b.length != 4) {
                throw new IllegalArgumentException("an int payload is 4 bytes, not " + b.length);
            }
            return (b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | (b[3] & 0xff);
        }
    }

    /** Wraps a process's stream for frames. */
    public static DataOutputStream output(OutputStream out) {
        return new DataOutputStream(new java.io.BufferedOutputStream(out, 1 << 16));
    }

    public static DataInputStream input(InputStream in) {
        return new DataInputStream(new java.io.BufferedInputStream(in, 1 << 16));
    }
}
