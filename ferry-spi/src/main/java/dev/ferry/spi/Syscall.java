package dev.ferry.spi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Linux system calls made through libc's {@code syscall(2)}, every one with the same FFM
 * descriptor (the number and six 64-bit arguments, errno captured), for the layers that need a
 * call Java has no API for: futex and process_vm_readv/writev for the shm driver, prctl for a
 * rank that must end with its launcher, a Unix socket whose peer's credentials the node agent
 * reads (SO_PEERCRED). One descriptor means one downcall stub for the whole
 * process: the JDK links each distinct descriptor by generating classes and method-handle forms,
 * about 10 ms of a rank's start and as much again compiling them, while equal descriptors share
 * the stub (the JDK caches it). Pointers are passed as addresses: the caller keeps their memory
 * alive for the call.
 *
 * <pre>{@code
 * MemorySegment errno = Syscall.errnoCapture(arena);
 * long r = Syscall.call(errno, Syscall.number(Syscall.Call.KILL), pid, 0, 0, 0, 0, 0);
 * if (r < 0 && Syscall.errno(errno) == 3) { ... } // ESRCH: no such process
 * }</pre>
 */
public final class Syscall {
    /** The calls Ferry makes, numbered per architecture ({@link #number}). */
    public enum Call {
        CLOSE(3, 57), KILL(62, 129), PRCTL(157, 167), FUTEX(202, 98), OPENAT(257, 56),
        PROCESS_VM_READV(310, 270), PROCESS_VM_WRITEV(311, 271), MINCORE(27, 232),
        READ(0, 63), WRITE(1, 64), GETUID(102, 174), SOCKET(41, 198), BIND(49, 200), LISTEN(50, 201), ACCEPT4(288, 242),
        GETSOCKOPT(55, 209), MMAP(9, 222), MUNMAP(11, 215), MADVISE(28, 233), SETSID(112, 157);

        /** This architecture's number, resolved once: the shm driver's copies and liveness checks ask for it on every call. */
        private final long number;

        Call(long amd64, long aarch64) {
            this.number = switch (System.getProperty("os.arch")) {
                case "amd64", "x86_64" -> amd64;
                case "aarch64" -> aarch64;
                default -> -1;
            };
        }
    }

    private static final String ARCH = System.getProperty("os.arch");
    private static final long ERRNO_OFFSET = Linker.Option.captureStateLayout().byteOffset(MemoryLayout.PathElement.groupElement("errno"));
    /** long syscall(long number, ...): the arguments as 64-bit values, as the kernel takes them. */
    private static final MethodHandle SYSCALL;

    static {
        Linker linker = Linker.nativeLinker();
        ValueLayout.OfLong l = ValueLayout.JAVA_LONG;
        SYSCALL = linker.defaultLookup().find("syscall").map(f -> linker.downcallHandle(f, FunctionDescriptor.of(l, l, l, l, l, l, l, l),
                Linker.Option.captureCallState("errno"), Linker.Option.firstVariadicArg(1))).orElse(null);
    }

    private Syscall() {
    }

    /** Whether calls can be made here: Linux on x86-64 or aarch64, with a libc that has syscall. */
    public static boolean available() {
        return SYSCALL != null && (ARCH.equals("amd64") || ARCH.equals("x86_64") || ARCH.equals("aarch64"));
    }

    /** The number of {@code c} on this architecture, -1 where Ferry does not know it. */
    public static long number(Call c) {
        return c.number;
    }

    /** A reusable capture of errno, one per calling thread or site. */
    public static MemorySegment errnoCapture(Arena arena) {
        return arena.allocate(Linker.Option.captureStateLayout());
    }

    /** The errno the last failing call through {@code capture} left. */
    public static int errno(MemorySegment capture) {
        return capture.get(ValueLayout.JAVA_INT, ERRNO_OFFSET);
    }

    private static final int ESRCH = 3;

    /**
     * Whether process {@code pid} exists: kill with signal 0 (EPERM still means it does), a system
     * call of a microsecond where {@link ProcessHandle} reads and parses /proc; that where calls
     * cannot be made. A zombie exists until its parent reaps it.
     */
    public static boolean processExists(MemorySegment capture, long pid) {
        if (!available() || number(Call.KILL) < 0) {
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        }
        return call(capture, number(Call.KILL), pid, 0, 0, 0, 0, 0) == 0 || errno(capture) != ESRCH;
    }

    /**
     * Makes system call {@code number} with six arguments (unused ones 0); its result, -1 on
     * failure with errno in {@code capture}.
     *
     * @throws UnsupportedOperationException where {@link #available()} is false
     */
    public static long call(MemorySegment capture, long number, long a1, long a2, long a3, long a4, long a5, long a6) {
        if (SYSCALL == null || number < 0) {
            throw new UnsupportedOperationException("system call " + number + " cannot be made on " + ARCH);
        }
        try {
            return (long) SYSCALL.invokeExact(capture, number, a1, a2, a3, a4, a5, a6);
        } catch (Throwable t) {
            throw new IllegalStateException("system call " + number + " failed", t);
        }
    }
}
