package dev.ferry.driver.tcp;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * TLS over one non-blocking connection with the JDK's {@link SSLEngine}: the handshake in steps
 * the set-up thread's selector drives, then reads and writes of plain bytes that return at once
 * with what the socket took or had, as the channel's own would. Encrypted bytes wait in
 * {@code netOut} until the socket takes them ({@link #flush()}); a record that arrived whole but
 * has not been read yet counts as buffered ({@link #hasBuffered()}), since the selector no longer
 * sees it. One thread at a time, as for the connection itself.
 */
final class TlsChannel {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
    /** Records gathered per socket write: fewer system calls for large messages. */
    private static final int RECORDS_PER_WRITE = 8;
    /** A TLS record header: type, version, then the length at offset 3. */
    private static final int RECORD_HEADER = 5;

    /** What the handshake needs next. */
    enum Need { READ, WRITE, NOTHING }

    private final SocketChannel channel;
    private final SSLEngine engine;
    private final ByteBuffer netIn;
    private final ByteBuffer netOut;
    /** Plain bytes of a record that did not fit the reader's buffer, between position and limit. */
    private final ByteBuffer appIn;
    private final int recordBytes;
    private final ByteBuffer[] single = new ByteBuffer[1];

    TlsChannel(SocketChannel channel, SSLEngine engine) throws SSLException {
        this.channel = channel;
        this.engine = engine;
        this.recordBytes = engine.getSession().getPacketBufferSize();
        this.netIn = ByteBuffer.allocateDirect(recordBytes * 2);
        this.netOut = ByteBuffer.allocateDirect(recordBytes * RECORDS_PER_WRITE);
        this.appIn = ByteBuffer.allocateDirect(engine.getSession().getApplicationBufferSize()).flip();
        engine.beginHandshake();
    }

    /**
     * One step of the TLS handshake as far as the socket allows: what to wait for before the next,
     * or {@link Need#NOTHING} once it is complete and its last bytes are written.
     */
    Need handshake() throws IOException {
        while (true) {
            if (!flush()) {
                return Need.WRITE;
            }
            switch (engine.getHandshakeStatus()) {
                case NEED_WRAP -> {
                    SSLEngineResult r = engine.wrap(EMPTY, netOut);
                    if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                        throw new SSLException("the TLS handshake was closed");
                    }
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    netIn.flip();
                    SSLEngineResult r;
                    try {
                        r = engine.unwrap(netIn, appIn.compact());
                    } finally {
                        appIn.flip();
                        netIn.compact();
                    }
                    switch (r.getStatus()) {
                        case BUFFER_UNDERFLOW -> {
                            int n = channel.read(netIn);
                            if (n < 0) {
                                throw new SSLException("the peer closed the connection during the TLS handshake (is FERRY_TCP_TLS on at both ends?)");
                            }
                            if (n == 0) {
                                return Need.READ;
                            }
                        }
                        case CLOSED -> throw new SSLException("the TLS handshake was closed");
                        default -> {
                        }
                    }
                }
                case NEED_TASK -> {
                    Runnable t;
                    while ((t = engine.getDelegatedTask()) != null) {
                        t.run(); // certificate checks and key agreement: milliseconds, once per connection
                    }
                }
                default -> {
                    return Need.NOTHING;
                }
            }
        }
    }

    /**
     * Reads plain bytes into {@code dst}: how many, 0 when no whole record is there yet, -1 at the
     * end of the stream.
     */
    int read(ByteBuffer dst) throws IOException {
        int produced = 0;
        while (dst.hasRemaining()) {
            if (appIn.hasRemaining()) {
                produced += drainAppIn(dst);
                continue;
            }
            // Into the reader's memory when a whole record fits there, else through appIn: the
            // engine refuses a smaller buffer, even before it has the whole record.
            boolean direct = dst.remaining() >= appIn.capacity();
            ByteBuffer target = direct ? dst : appIn.compact();
            netIn.flip();
            SSLEngineResult r;
            try {
                r = engine.unwrap(netIn, target);
            } finally {
                netIn.compact();
                if (!direct) {
                    appIn.flip();
                }
            }
            if (direct) {
                produced += r.bytesProduced();
            }
            switch (r.getStatus()) {
                case OK -> {
                    boolean answered = answerPostHandshake(r);
                    if (r.bytesConsumed() == 0 && r.bytesProduced() == 0 && !answered) {
                        return produced;
                    }
                }
                case BUFFER_UNDERFLOW -> {
                    if (produced > 0) {
                        return produced; // what came is enough for this call
                    }
                    int n = channel.read(netIn);
                    if (n <= 0) {
                        return n;
                    }
                }
                case BUFFER_OVERFLOW -> throw new SSLException("a TLS record larger than the session's application buffer");
                case CLOSED -> {
                    return produced > 0 ? produced : -1;
                }
            }
        }
        return produced;
    }

    /**
     * After a post-handshake message (a TLS 1.3 session ticket or key update), the engine may need
     * to compute or answer; true when it did.
     */
    private boolean answerPostHandshake(SSLEngineResult r) throws IOException {
        SSLEngineResult.HandshakeStatus hs = r.getHandshakeStatus();
        boolean acted = false;
        if (hs == SSLEngineResult.HandshakeStatus.NEED_TASK) {
            Runnable t;
            while ((t = engine.getDelegatedTask()) != null) {
                t.run();
            }
            hs = engine.getHandshakeStatus();
            acted = true;
        }
        if (hs == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
            engine.wrap(EMPTY, netOut);
            flush();
            acted = true;
        }
        return acted;
    }

    private int drainAppIn(ByteBuffer dst) {
        int n = Math.min(dst.remaining(), appIn.remaining());
        int limit = appIn.limit();
        appIn.limit(appIn.position() + n);
        dst.put(appIn);
        appIn.limit(limit);
        return n;
    }

    /** Writes plain bytes from {@code src}: how many were taken (encrypted; some may wait in {@link #pending()}). */
    long write(ByteBuffer src) throws IOException {
        single[0] = src; // one array for every such write: nothing allocated per send
        try {
            return write(single, 0, 1);
        } finally {
            single[0] = null;
        }
    }

    /** A gathering {@link #write(ByteBuffer)}. */
    long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        long taken = 0;
        while (flush()) {
            boolean any = false;
            while (netOut.remaining() >= recordBytes) {
                SSLEngineResult r = engine.wrap(srcs, offset, length, netOut);
                if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                    throw new SSLException("the TLS session is closed");
                }
                taken += r.bytesConsumed();
                if (r.bytesConsumed() == 0) {
                    break;
                }
                any = true;
            }
            if (!any) {
                flush();
                return taken;
            }
        }
        return taken;
    }

    /** Writes encrypted bytes that wait; true when none is left. */
    boolean flush() throws IOException {
        if (netOut.position() == 0) {
            return true;
        }
        netOut.flip();
        try {
            channel.write(netOut);
        } finally {
            netOut.compact();
        }
        return netOut.position() == 0;
    }

    /** Whether encrypted bytes wait for room in the socket. */
    boolean pending() {
        return netOut.position() > 0;
    }

    /** Whether plain bytes, or a whole record, wait to be read: the selector will not say so. */
    boolean hasBuffered() {
        if (appIn.hasRemaining()) {
            return true;
        }
        int have = netIn.position();
        if (have < RECORD_HEADER) {
            return false;
        }
        int length = ((netIn.get(3) & 0xff) << 8) | (netIn.get(4) & 0xff);
        return have >= RECORD_HEADER + length;
    }

    @Override
    public String toString() {
        return "TLS " + engine.getSession().getProtocol() + " " + engine.getSession().getCipherSuite() + " (" + netOut.position()
                + " B to write, " + netIn.position() + " B read, " + appIn.remaining() + " B decrypted)";
    }
}
