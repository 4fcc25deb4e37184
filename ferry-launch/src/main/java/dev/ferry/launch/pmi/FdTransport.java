package dev.ferry.launch.pmi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * PMI over a file descriptor inherited from the launcher (PMI_FD, as Hydra and Slurm hand it
 * over). The JDK has no way to wrap a raw descriptor number, so this calls libc's {@code read},
 * {@code write} and {@code close} through FFM, retrying on EINTR.
 */
public final class FdTransport implements PmiTransport {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    private static final Linker.Option ERRNO = Linker.Option.captureCallState("errno");
    private static final long ERRNO_OFFSET = Linker.Option.captureStateLayout()
            .byteOffset(java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle READ = LINKER.downcallHandle(LIBC.find("read").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG), ERRNO);
    private static final MethodHandle WRITE = LINKER.downcallHandle(LIBC.find("write").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG), ERRNO);
    private static final MethodHandle CLOSE = LINKER.downcallHandle(LIBC.find("close").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final int EINTR = 4;

    private final int fd;
    /** Shared: the engine's closing fence runs in a thread of its own (the clients serialize the calls). */
    private final Arena arena = Arena.ofShared();
    private final MemorySegment buffer = arena.allocate(PmiWire.MAX_MESSAGE);
    private final MemorySegment state = arena.allocate(Linker.Option.captureStateLayout());

    public FdTransport(int fd) {
        if (fd < 0) {
            throw new PmiException("PMI_FD must be a file descriptor number, not " + fd);
        }
        this.fd = fd;
    }

    @Override
    public void write(byte[] bytes) {
        int off = 0;
        while (off < bytes.length) {
            int n = Math.min(bytes.length - off, (int) buffer.byteSize());
            MemorySegment.copy(bytes, off, buffer, ValueLayout.JAVA_BYTE, 0, n);
            long w = call(WRITE, n, "write");
            off += (int) w;
        }
    }

    @Override
    public int read(byte[] buf, int off, int len) {
        int n = Math.min(len, (int) buffer.byteSize());
        long r = call(READ, n, "read");
        if (r == 0) {
            return -1;
        }
        MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, buf, off, (int) r);
        return (int) r;
    }

    private long call(MethodHandle h, int n, String what) {
        while (true) {
            long r;
            try {
                r = (long) h.invokeExact(state, fd, buffer, (long) n);
            } catch (Throwable t) {
                throw new PmiException(what + " on PMI_FD " + fd + " failed: " + t, t);
            }
            if (r >= 0) {
                return r;
            }
            int errno = state.get(ValueLayout.JAVA_INT, ERRNO_OFFSET);
            if (errno != EINTR) {
                throw new PmiException(what + " on PMI_FD " + fd + " failed with errno " + errno);
            }
        }
    }

    @Override
    public void close() {
        try {
            int ignored = (int) CLOSE.invokeExact(fd);
        } catch (Throwable ignored) {
            // closing anyway
        }
        arena.close();
    }
}
