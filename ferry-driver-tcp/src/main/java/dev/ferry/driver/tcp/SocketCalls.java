package dev.ferry.driver.tcp;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A connected socket's hot-path system calls made straight on its descriptor through FFM:
 * {@code recv} and {@code send} with {@code MSG_DONTWAIT}, as critical downcalls (the socket never
 * blocks, so the thread need not leave Java's state). NIO's read and write take a lock, check the
 * channel's state and cross JNI around the same system call; on loopback that cost about 0.15 us
 * of a 6.4 us round trip. The descriptor is found once, by the connection's addresses
 * ({@link #of}); the channel keeps owning it (selector registration, shutdown, close) and makes
 * the large reads and writes.
 */
final class SocketCalls {
    private static final int EINTR = 4, EAGAIN = 11;
    private static final int MSG_DONTWAIT = 0x40, MSG_NOSIGNAL = 0x4000;
    private static final int AF_INET = 2, AF_INET6 = 10;
    private static final long SOCKADDR_BYTES = 128;

    private final int fd;
    private final MemorySegment errno;

    private SocketCalls(int fd) {
        this.fd = fd;
        this.errno = Arena.ofAuto().allocate(Linker.Option.captureStateLayout());
    }

    /**
     * Direct calls for a connected channel, or null where they cannot be made (not Linux, no
     * {@code /proc}, no native access, the descriptor not found): the channel's own calls serve.
     */
    static SocketCalls of(SocketChannel ch) {
        try {
            int fd = Libc.descriptorOf(ch);
            return fd < 0 ? null : new SocketCalls(fd);
        } catch (Throwable e) {
            return null;
        }
    }

    /** Bytes received into the {@code len} bytes of native memory at {@code address}: n > 0; 0 when none are there yet; -1 at end of stream. */
    int recv(long address, long len) throws java.io.IOException {
        long n = call(Libc.RECV, address, len, MSG_DONTWAIT, "recv");
        return n == WOULD_BLOCK ? 0 : n == 0 ? -1 : (int) n;
    }

    /** Bytes sent from the {@code len} bytes of native memory at {@code address}, 0 when the socket is full. */
    int send(long address, long len) throws java.io.IOException {
        long n = call(Libc.SEND, address, len, MSG_DONTWAIT | MSG_NOSIGNAL, "send");
        return n == WOULD_BLOCK ? 0 : (int) n;
    }

    /** What {@link #call} answers when the socket has nothing to give or no room now (EAGAIN). */
    private static final long WOULD_BLOCK = -1;

    /** One recv or send, again after EINTR: its count, or {@link #WOULD_BLOCK}; another failure is an error naming its errno. */
    private long call(MethodHandle h, long address, long len, int flags, String what) throws java.io.IOException {
        while (true) {
            long n;
            try {
                n = (long) h.invokeExact(errno, fd, address, len, flags);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            if (n >= 0) {
                return n;
            }
            int e = errno.get(ValueLayout.JAVA_INT, Libc.ERRNO_OFFSET);
            if (e == EAGAIN) {
                return WOULD_BLOCK;
            }
            if (e != EINTR) {
                throw new java.io.IOException(what + ": " + describe(e));
            }
        }
    }

    /** What a failed call's errno means, for the connection's failure (Linux numbering). */
    static String describe(int errno) {
        String what = switch (errno) {
            case 9 -> "bad file descriptor";
            case 12 -> "out of memory";
            case 32 -> "broken pipe";
            case 88 -> "not a socket";
            case 101 -> "network is unreachable";
            case 103 -> "connection aborted";
            case 104 -> "connection reset by peer";
            case 105 -> "no buffer space available";
            case 107 -> "not connected";
            case 110 -> "connection timed out";
            case 113 -> "no route to host";
            default -> "failed";
        };
        return what + " (errno " + errno + ")";
    }

    /** The libc functions, apart: their lookup failing (no native access) only turns direct calls off. */
    private static final class Libc {
        static final Linker LINKER = Linker.nativeLinker();
        static final SymbolLookup LIBC = LINKER.defaultLookup();
        static final long ERRNO_OFFSET = Linker.Option.captureStateLayout().byteOffset(MemoryLayout.PathElement.groupElement("errno"));
        /** ssize_t recv(int, void *, size_t, int) and send(...), the buffer as an address, errno captured, critical. */
        static final MethodHandle RECV = transfer("recv"), SEND = transfer("send");
        static final MethodHandle GETSOCKNAME = name("getsockname"), GETPEERNAME = name("getpeername");

        private static MethodHandle transfer(String fn) {
            return LINKER.downcallHandle(LIBC.find(fn).orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT),
                    Linker.Option.captureCallState("errno"), Linker.Option.critical(false));
        }

        private static MethodHandle name(String fn) {
            return LINKER.downcallHandle(LIBC.find(fn).orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        }

        /**
         * The descriptor of a connected channel: the one among the process's open descriptors
         * whose local and remote addresses are the channel's (a connection's pair is unique in a
         * process; its two ends, both here, have them swapped). Newest first: a channel just
         * connected or accepted usually holds the highest number. -1 when not found.
         */
        static int descriptorOf(SocketChannel ch) throws Throwable {
            SocketAddress local = ch.getLocalAddress(), remote = ch.getRemoteAddress();
            int[] open;
            try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
                open = fds.map(p -> p.getFileName().toString()).filter(n -> n.chars().allMatch(Character::isDigit))
                        .mapToInt(Integer::parseInt).sorted().toArray();
            }
            try (Arena a = Arena.ofConfined()) {
                MemorySegment sa = a.allocate(SOCKADDR_BYTES, 8), len = a.allocate(ValueLayout.JAVA_INT);
                for (int i = open.length - 1; i >= 0; i--) {
                    if (local.equals(address(GETSOCKNAME, open[i], sa, len)) && remote.equals(address(GETPEERNAME, open[i], sa, len))) {
                        return open[i];
                    }
                }
            }
            return -1;
        }

        private static InetSocketAddress address(MethodHandle f, int fd, MemorySegment sa, MemorySegment len) throws Throwable {
            len.set(ValueLayout.JAVA_INT, 0, (int) SOCKADDR_BYTES);
            if ((int) f.invokeExact(fd, sa, len) != 0) {
                return null;
            }
            int family = sa.get(ValueLayout.JAVA_SHORT, 0);
            int port = Short.toUnsignedInt(sa.get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN), 2));
            byte[] ip;
            if (family == AF_INET) {
                ip = sa.asSlice(4, 4).toArray(ValueLayout.JAVA_BYTE);
            } else if (family == AF_INET6) {
                ip = sa.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE);
            } else {
                return null;
            }
            try {
                return new InetSocketAddress(InetAddress.getByAddress(ip), port);
            } catch (UnknownHostException e) {
                return null;
            }
        }
    }
}
