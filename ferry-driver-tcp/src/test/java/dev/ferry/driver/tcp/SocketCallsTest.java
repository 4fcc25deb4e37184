package dev.ferry.driver.tcp;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import static org.junit.jupiter.api.Assertions.*;

class SocketCallsTest {
    /** Both ends of one loopback connection, in this process. */
    private record Pair(SocketChannel a, SocketChannel b) implements AutoCloseable {
        static Pair open() throws IOException {
            try (ServerSocketChannel server = ServerSocketChannel.open()) {
                server.bind(new InetSocketAddress("127.0.0.1", 0));
                SocketChannel a = SocketChannel.open(server.getLocalAddress());
                SocketChannel b = server.accept();
                for (SocketChannel c : new SocketChannel[] {a, b}) {
                    c.configureBlocking(false);
                    c.setOption(StandardSocketOptions.TCP_NODELAY, true);
                }
                return new Pair(a, b);
            }
        }

        @Override
        public void close() throws IOException {
            a.close();
            b.close();
        }
    }

    @Test
    void eachEndFindsItsOwnDescriptorAndTheBytesCrossBothWays() throws IOException {
        try (Pair p = Pair.open(); Arena arena = Arena.ofConfined()) {
            SocketCalls a = SocketCalls.of(p.a()), b = SocketCalls.of(p.b());
            assertNotNull(a, "the connecting end's descriptor");
            assertNotNull(b, "the accepted end's descriptor");
            MemorySegment out = arena.allocate(64), in = arena.allocate(64);
            assertEquals(0, b.recv(in.address(), 64), "nothing sent yet");
            for (int i = 0; i < 64; i++) {
                out.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 1));
            }
            assertEquals(64, a.send(out.address(), 64));
            assertEquals(64, readAll(b, in, 64));
            assertEquals(-1, out.mismatch(in), "the bytes a sent are the bytes b received");
            // the other way, and through the channel: the same socket underneath
            p.b().write(ByteBuffer.wrap(new byte[] {42, 43}));
            assertEquals(2, readAll(a, in, 2));
            assertEquals(42, in.get(ValueLayout.JAVA_BYTE, 0));
            assertEquals(43, in.get(ValueLayout.JAVA_BYTE, 1));
        }
    }

    @Test
    void aClosedPeerIsTheEndOfTheStreamAndAResetOneAnErrorNamingIt() throws IOException {
        try (Pair p = Pair.open(); Arena arena = Arena.ofConfined()) {
            SocketCalls a = SocketCalls.of(p.a());
            MemorySegment buf = arena.allocate(16);
            p.b().close();
            long end = System.nanoTime() + 10_000_000_000L;
            int n;
            while ((n = a.recv(buf.address(), 16)) == 0) {
                assertTrue(System.nanoTime() < end, "no end of stream within 10 s");
                Thread.onSpinWait();
            }
            assertEquals(-1, n, "end of stream");
            // the peer is gone: sending soon fails with a reset or broken pipe, by name
            IOException e = assertThrows(IOException.class, () -> {
                while (System.nanoTime() < end) {
                    a.send(buf.address(), 16);
                }
            });
            assertTrue(e.getMessage().matches("send: (connection reset by peer|broken pipe) \\(errno \\d+\\)"), e.getMessage());
        }
    }

    @Test
    void errnoNamesAreReadable() {
        assertEquals("connection reset by peer (errno 104)", SocketCalls.describe(104));
        assertEquals("failed (errno 9999)", SocketCalls.describe(9999));
    }

    private static int readAll(SocketCalls c, MemorySegment into, int want) throws IOException {
        long end = System.nanoTime() + 10_000_000_000L;
        int got = 0;
        while (got < want) {
            int n = c.recv(into.address() + got, want - got);
            assertTrue(n >= 0, "end of stream after " + got + " bytes");
            got += n;
            assertTrue(System.nanoTime() < end, "only " + got + " of " + want + " bytes within 10 s");
        }
        return got;
    }
}
