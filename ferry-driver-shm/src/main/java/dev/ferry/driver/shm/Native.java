package dev.ferry.driver.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The system calls the shm driver needs, through FFM downcalls into libc: futex (sleeping and
 * waking on a word of shared memory), process_vm_readv and process_vm_writev (reading and writing
 * another process's memory: the single copy), kill(pid, 0) (is the peer alive), and open / close (a file of /dev/shm opened
 * without following links nor blocking, so that it can be checked before it is trusted). Each
 * failing call leaves its errno in the caller's capture segment.
 */
final class Native {
    static final int EPERM = 1;
    static final int ESRCH = 3;
    static final int EINTR = 4;
    static final int EFAULT = 14;
    static final int EAGAIN = 11;
    static final int ETIMEDOUT = 110;
    static final int ENOSYS = 38;
    static final int ENOENT = 2;
    static final int ELOOP = 40;
    /** struct iovec: void *iov_base; size_t iov_len. */
    static final long IOVEC_BYTES = 16;
    static final int IOV_MAX = 1024;

    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;
    private static final long SYS_FUTEX = switch (System.getProperty("os.arch")) {
        case "amd64", "x86_64" -> 202;
        case "aarch64" -> 98;
        default -> -1;
    };

    private static final int O_RDONLY = 0, O_RDWR = 2, O_NONBLOCK = 0x800, O_CLOEXEC = 0x80000;
    private static final int O_NOFOLLOW = switch (System.getProperty("os.arch")) {
        case "aarch64" -> 0x8000;
        default -> 0x20000; // x86-64 (and the generic value of most others)
    };

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    private static final Linker.Option ERRNO = Linker.Option.captureCallState("errno");
    private static final long ERRNO_OFFSET = Linker.Option.captureStateLayout().byteOffset(MemoryLayout.PathElement.groupElement("errno"));

    /** long syscall(long number, ...): all arguments passed as 64-bit values, as the kernel takes them. */
    private static final MethodHandle SYSCALL = LINKER.downcallHandle(LIBC.find("syscall").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
            ERRNO, Linker.Option.firstVariadicArg(1));
    private static final MethodHandle PROCESS_VM_READV = LINKER.downcallHandle(LIBC.find("process_vm_readv").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                    ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), ERRNO);
    private static final MethodHandle PROCESS_VM_WRITEV = LINKER.downcallHandle(LIBC.find("process_vm_writev").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                    ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), ERRNO);
    private static final MethodHandle KILL = LINKER.downcallHandle(LIBC.find("kill").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT), ERRNO);

    private static final MethodHandle OPEN = LINKER.downcallHandle(LIBC.find("open").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT), ERRNO);
    private static final MethodHandle CLOSE = LINKER.downcallHandle(LIBC.find("close").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));

    private Native() {
    }

    /** A reusable capture of errno, one per calling site. */
    static MemorySegment errnoCapture(Arena arena) {
        return arena.allocate(Linker.Option.captureStateLayout());
    }

    static int errno(MemorySegment capture) {
        return capture.get(ValueLayout.JAVA_INT, ERRNO_OFFSET);
    }

    static boolean futexAvailable() {
        return SYS_FUTEX > 0;
    }

    /**
     * Sleeps while the 32-bit word at {@code address} equals {@code expected}, at most
     * {@code timeout} (a struct timespec, or NULL). Returns 0 when woken, else -errno
     * (EAGAIN: the word had changed; ETIMEDOUT; EINTR).
     */
    static int futexWait(MemorySegment capture, MemorySegment word, int expected, MemorySegment timeout) {
        try {
            long r = (long) SYSCALL.invokeExact(capture, SYS_FUTEX, word, (long) FUTEX_WAIT, (long) expected, timeout, 0L, 0L);
            return r == 0 ? 0 : -errno(capture);
        } catch (Throwable t) {
            throw new IllegalStateException("futex wait failed", t);
        }
    }

    /** Wakes up to {@code count} sleepers on the word; returns how many woke, or -errno. */
    static int futexWake(MemorySegment capture, MemorySegment word, int count) {
        try {
            long r = (long) SYSCALL.invokeExact(capture, SYS_FUTEX, word, (long) FUTEX_WAKE, (long) count, MemorySegment.NULL, 0L, 0L);
            return r >= 0 ? (int) r : -errno(capture);
        } catch (Throwable t) {
            throw new IllegalStateException("futex wake failed", t);
        }
    }

    /** process_vm_readv: bytes read, or -errno. */
    static long readv(MemorySegment capture, long pid, MemorySegment local, long localCount, MemorySegment remote, long remoteCount) {
        return vm(PROCESS_VM_READV, "process_vm_readv", capture, pid, local, localCount, remote, remoteCount);
    }

    /** process_vm_writev: bytes written, or -errno. */
    static long writev(MemorySegment capture, long pid, MemorySegment local, long localCount, MemorySegment remote, long remoteCount) {
        return vm(PROCESS_VM_WRITEV, "process_vm_writev", capture, pid, local, localCount, remote, remoteCount);
    }

    private static long vm(MethodHandle call, String name, MemorySegment capture, long pid, MemorySegment local, long localCount,
            MemorySegment remote, long remoteCount) {
        try {
            long r = (long) call.invokeExact(capture, (int) pid, local, localCount, remote, remoteCount, 0L);
            return r >= 0 ? r : -errno(capture);
        } catch (Throwable t) {
            throw new IllegalStateException(name + " failed", t);
        }
    }

    /** Whether the process exists (kill with signal 0; EPERM still means it exists). */
    static boolean alive(MemorySegment capture, long pid) {
        try {
            int r = (int) KILL.invokeExact(capture, (int) pid, 0);
            return r == 0 || errno(capture) != ESRCH;
        } catch (Throwable t) {
            throw new IllegalStateException("kill(pid, 0) failed", t);
        }
    }

    /**
     * open(2) with O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC: a symbolic link is refused (ELOOP) and a
     * FIFO or device opens without waiting for a writer. Returns the descriptor, or -errno.
     */
    static int openNoFollow(String path, boolean write) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment capture = errnoCapture(a);
            int flags = (write ? O_RDWR : O_RDONLY) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
            int fd = (int) OPEN.invokeExact(capture, a.allocateFrom(path), flags);
            return fd >= 0 ? fd : -errno(capture);
        } catch (Throwable t) {
            throw new IllegalStateException("open failed", t);
        }
    }

    static void close(int fd) {
        try {
            int ignored = (int) CLOSE.invokeExact(fd);
        } catch (Throwable t) {
            throw new IllegalStateException("close failed", t);
        }
    }
}
