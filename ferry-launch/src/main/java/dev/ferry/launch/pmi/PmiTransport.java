package dev.ferry.launch.pmi;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A byte stream to the process manager: an inherited file descriptor (PMI_FD) or a TCP socket
 * (PMI_PORT). Blocking; one request at a time.
 */
public interface PmiTransport extends AutoCloseable {
    void write(byte[] bytes);

    /** Reads up to {@code len} bytes into {@code buf}; returns the count, -1 at end of stream. */
    int read(byte[] buf, int off, int len);

    @Override
    void close();

    /** Reads one PMI-1 line, without its newline. */
    default String readLine() {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        byte[] one = new byte[1];
        while (true) {
            int n = read(one, 0, 1);
            if (n < 0) {
                throw new PmiException("the process manager closed the PMI connection"
                        + (line.size() > 0 ? " in the middle of '" + line.toString(StandardCharsets.US_ASCII) + "'" : ""));
            }
            if (one[0] == '\n') {
                return line.toString(StandardCharsets.US_ASCII);
            }
            if (line.size() >= PmiWire.MAX_MESSAGE) {
                throw new PmiException("PMI line longer than " + PmiWire.MAX_MESSAGE + " bytes");
            }
            line.write(one[0]);
        }
    }

    /** Reads exactly {@code n} bytes. */
    default byte[] readExactly(int n) {
        byte[] b = new byte[n];
        int off = 0;
        while (off < n) {
            int k = read(b, off, n - off);
            if (k < 0) {
                throw new PmiException("the process manager closed the PMI connection after " + off + " of " + n + " bytes");
            }
            off += k;
        }
        return b;
    }

    default void writeAscii(String s) {
        write(s.getBytes(StandardCharsets.US_ASCII));
    }
}
