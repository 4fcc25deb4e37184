package dev.ferry.driver.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import dev.ferry.spi.Syscall;

/**
 * The system calls the shm driver needs, through FFM downcalls into libc: futex (sleeping and
 * waking on a word of shared memory), process_vm_readv and process_vm_writev (reading and writing
 * another process's memory: the single copy), kill(pid, 0) (is the peer alive), mincore (the pages of a mapping that exist), and open / close (a file of /dev/shm opened
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
    private static final long SYS_FUTEX = Syscall.number(Syscall.Call.FUTEX);
    private static final long AT_FDCWD = -100;

    private static final int O_RDONLY = 0, O_RDWR = 2, O_NONBLOCK = 0x800, O_CLOEXEC = 0x80000;
    private static final int O_NOFOLLOW = switch (System.getProperty("os.arch")) {
        case "aarch64" -> 0x8000;
        default -> 0x20000; // x86-64 (and the generic value of most others)
    };

    /** The size of a memory page (getpagesize), 4096 if it cannot be asked. */
    static final long PAGE = pageSize();

    private Native() {
    }

    private static long pageSize() {
        java.lang.foreign.Linker l = java.lang.foreign.Linker.nativeLinker();
        return l.defaultLookup().find("getpagesize").map(f -> {
            try {
                return (long) (int) l.downcallHandle(f, java.lang.foreign.FunctionDescriptor.of(java.lang.foreign.ValueLayout.JAVA_INT)).invokeExact();
            } catch (Throwable t) {
                return 4096L;
            }
        }).orElse(4096L);
    }

    /** A reusable capture of errno, one per calling site. */
    static MemorySegment errnoCapture(Arena arena) {
        return Syscall.errnoCapture(arena);
    }

    static int errno(MemorySegment capture) {
        return Syscall.errno(capture);
    }

    static boolean futexAvailable() {
        return Syscall.available() && SYS_FUTEX > 0;
    }

    /**
     * Sleeps while the 32-bit word at {@code address} equals {@code expected}, at most
     * {@code timeout} (a struct timespec, or NULL). Returns 0 when woken, else -errno
     * (EAGAIN: the word had changed; ETIMEDOUT; EINTR).
     */
    static int futexWait(MemorySegment capture, MemorySegment word, int expected, MemorySegment timeout) {
        long r = Syscall.call(capture, SYS_FUTEX, word.address(), FUTEX_WAIT, expected, timeout.address(), 0, 0);
        return r == 0 ? 0 : -errno(capture);
    }

    /** Wakes up to {@code count} sleepers on the word; returns how many woke, or -errno. */
    static int futexWake(MemorySegment capture, MemorySegment word, int count) {
        long r = Syscall.call(capture, SYS_FUTEX, word.address(), FUTEX_WAKE, count, 0, 0, 0);
        return r >= 0 ? (int) r : -errno(capture);
    }

    /** process_vm_readv: bytes read, or -errno. */
    static long readv(MemorySegment capture, long pid, MemorySegment local, long localCount, MemorySegment remote, long remoteCount) {
        return vm(Syscall.Call.PROCESS_VM_READV, capture, pid, local, localCount, remote, remoteCount);
    }

    /** process_vm_writev: bytes written, or -errno. */
    static long writev(MemorySegment capture, long pid, MemorySegment local, long localCount, MemorySegment remote, long remoteCount) {
        return vm(Syscall.Call.PROCESS_VM_WRITEV, capture, pid, local, localCount, remote, remoteCount);
    }

    private static long vm(Syscall.Call call, MemorySegment capture, long pid, MemorySegment local, long localCount,
            MemorySegment remote, long remoteCount) {
        long r = Syscall.call(capture, Syscall.number(call), pid, local.address(), localCount, remote.address(), remoteCount, 0);
        return r >= 0 ? r : -errno(capture);
    }

    /** Whether the process exists (kill with signal 0; EPERM still means it exists). */
    static boolean alive(MemorySegment capture, long pid) {
        return Syscall.processExists(capture, pid);
    }

    /**
     * open(2) with O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC: a symbolic link is refused (ELOOP) and a
     * FIFO or device opens without waiting for a writer. Returns the descriptor, or -errno.
     */
    static int openNoFollow(String path, boolean write) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment capture = errnoCapture(a);
            int flags = (write ? O_RDWR : O_RDONLY) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
            long fd = Syscall.call(capture, Syscall.number(Syscall.Call.OPENAT), AT_FDCWD, a.allocateFrom(path).address(), flags, 0, 0, 0);
            return fd >= 0 ? (int) fd : -errno(capture);
        }
    }

    /** Bytes of the mapping {@code m} whose pages exist (mincore: resident in memory); 0 when the call fails. */
    static long resident(MemorySegment capture, MemorySegment m, Arena scratch) {
        long page = PAGE;
        long pages = (m.byteSize() + page - 1) / page;
        if (pages == 0) {
            return 0;
        }
        MemorySegment vec = scratch.allocate(pages);
        long r = Syscall.call(capture, Syscall.number(Syscall.Call.MINCORE), m.address(), pages * page, vec.address(), 0, 0, 0);
        if (r != 0) {
            return 0;
        }
        long n = 0;
        for (long i = 0; i < pages; i++) {
            n += vec.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i) & 1;
        }
        return n * page;
    }

    static void close(int fd) {
        try (Arena a = Arena.ofConfined()) {
            Syscall.call(errnoCapture(a), Syscall.number(Syscall.Call.CLOSE), fd, 0, 0, 0, 0, 0);
        }
    }
}
