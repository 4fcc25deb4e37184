package dev.ferry.core.agent;

import dev.ferry.spi.Syscall;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The agent's Unix socket, made with system calls rather than the JDK's channels because the
 * agent needs what the JDK does not give: the connecting process's id, from the kernel
 * ({@code SO_PEERCRED}), so that the memory a rank registers is looked for in the process that
 * really connected, not one it names. Listening and accepted sockets are non-blocking: the
 * agent's one loop accepts, reads and notices hang-ups between its passes over the rings.
 */
final class AgentSocket implements AutoCloseable {
    private static final int AF_UNIX = 1, SOCK_STREAM = 1, SOCK_NONBLOCK = 0x800, SOCK_CLOEXEC = 0x80000;
    private static final int SOL_SOCKET = 1, SO_PEERCRED = 17;
    static final int EAGAIN = 11, EINTR = 4;
    /** struct sockaddr_un: u16 family, then the path (108 bytes with its terminating zero). */
    private static final int SUN_PATH = 2, SUN_PATH_BYTES = 108;
    /** struct ucred: i32 pid, u32 uid, u32 gid. */
    private static final long CRED_PID = 0, CRED_UID = 4;

    /** The kernel's word on who connected. */
    record Credentials(long pid, long uid) {
    }

    private final int fd;
    private final Path path;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment errno = Syscall.errnoCapture(arena);
    private final MemorySegment cred = arena.allocate(12, 4);
    private final MemorySegment credLength = arena.allocate(4, 4);

    private AgentSocket(int fd, Path path) {
        this.fd = fd;
        this.path = path;
    }

    /** The calling process's user id. */
    static long uid() {
        try (Arena a = Arena.ofConfined()) {
            return Syscall.call(Syscall.errnoCapture(a), Syscall.number(Syscall.Call.GETUID), 0, 0, 0, 0, 0, 0);
        }
    }

    /** Listens at {@code path} (which must not exist: a live agent's socket is not taken over). */
    static AgentSocket listen(Path path) {
        byte[] name = path.toString().getBytes(StandardCharsets.UTF_8);
        if (name.length >= SUN_PATH_BYTES) {
            throw new AgentException("the agent's socket path is " + name.length + " bytes, more than a Unix socket takes (107): " + path);
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment e = Syscall.errnoCapture(a);
            long fd = Syscall.call(e, Syscall.number(Syscall.Call.SOCKET), AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, 0, 0, 0);
            if (fd < 0) {
                throw new AgentException("socket(AF_UNIX) failed, errno " + Syscall.errno(e));
            }
            MemorySegment addr = a.allocate(SUN_PATH + SUN_PATH_BYTES, 2);
            addr.set(ValueLayout.JAVA_SHORT, 0, (short) AF_UNIX);
            MemorySegment.copy(name, 0, addr, ValueLayout.JAVA_BYTE, SUN_PATH, name.length);
            try {
                if (Syscall.call(e, Syscall.number(Syscall.Call.BIND), fd, addr.address(), SUN_PATH + name.length + 1, 0, 0, 0) < 0) {
                    int err = Syscall.errno(e);
                    throw new AgentException("the agent cannot listen at " + path + ": errno " + err + (err == 98 ? " (the path exists: another agent?)" : ""));
                }
                try { // only this user may connect, whatever the umask: the kernel keeps others out before SO_PEERCRED does
                    java.nio.file.Files.setPosixFilePermissions(path, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
                } catch (java.io.IOException | UnsupportedOperationException x) {
                    throw new AgentException("the agent cannot make its socket " + path + " its user's alone: " + x.getMessage());
                }
                if (Syscall.call(e, Syscall.number(Syscall.Call.LISTEN), fd, 128, 0, 0, 0, 0) < 0) {
                    throw new AgentException("the agent cannot listen at " + path + ": errno " + Syscall.errno(e));
                }
                return new AgentSocket((int) fd, path);
            } catch (AgentException failed) {
                Syscall.call(e, Syscall.number(Syscall.Call.CLOSE), fd, 0, 0, 0, 0, 0);
                throw failed;
            }
        }
    }

    /** A connection waiting, or -1 when none is. */
    int accept() {
        long c = Syscall.call(errno, Syscall.number(Syscall.Call.ACCEPT4), fd, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC, 0, 0);
        if (c < 0) {
            int err = Syscall.errno(errno);
            if (err == EAGAIN || err == EINTR || err == 103 /* ECONNABORTED */) {
                return -1;
            }
            throw new AgentException("accept on the agent's socket failed: errno " + err);
        }
        return (int) c;
    }

    /** Who is at the other end of accepted connection {@code conn}. */
    Credentials peer(int conn) {
        credLength.set(ValueLayout.JAVA_INT, 0, 12);
        if (Syscall.call(errno, Syscall.number(Syscall.Call.GETSOCKOPT), conn, SOL_SOCKET, SO_PEERCRED, cred.address(), credLength.address(), 0) < 0) {
            throw new AgentException("SO_PEERCRED failed: errno " + Syscall.errno(errno));
        }
        return new Credentials(Integer.toUnsignedLong(cred.get(ValueLayout.JAVA_INT, CRED_PID)), Integer.toUnsignedLong(cred.get(ValueLayout.JAVA_INT, CRED_UID)));
    }

    /** Reads what connection {@code conn} has into {@code into}: the bytes, 0 at end of stream, -1 when none are there now. */
    long read(int conn, MemorySegment into) {
        long r = Syscall.call(errno, Syscall.number(Syscall.Call.READ), conn, into.address(), into.byteSize(), 0, 0, 0);
        if (r < 0) {
            int err = Syscall.errno(errno);
            return err == EAGAIN || err == EINTR ? -1 : 0; // any other error: the connection is as good as ended
        }
        return r;
    }

    /** Writes all of {@code from} to {@code conn} (small answers: a full socket buffer here means a peer that does not read); whether it went. */
    boolean write(int conn, MemorySegment from) {
        long done = 0;
        for (int tries = 0; done < from.byteSize() && tries < 1000; tries++) {
            long r = Syscall.call(errno, Syscall.number(Syscall.Call.WRITE), conn, from.address() + done, from.byteSize() - done, 0, 0, 0);
            if (r > 0) {
                done += r;
            } else if (r < 0 && Syscall.errno(errno) != EAGAIN && Syscall.errno(errno) != EINTR) {
                return false;
            } else {
                Thread.onSpinWait();
            }
        }
        return done == from.byteSize();
    }

    void close(int conn) {
        Syscall.call(errno, Syscall.number(Syscall.Call.CLOSE), conn, 0, 0, 0, 0, 0);
    }

    Path path() {
        return path;
    }

    @Override
    public void close() {
        Syscall.call(errno, Syscall.number(Syscall.Call.CLOSE), fd, 0, 0, 0, 0, 0);
        try {
            java.nio.file.Files.deleteIfExists(path);
        } catch (java.io.IOException e) {
            // the path stays; the next agent's listen says so
        }
        arena.close();
    }
}
