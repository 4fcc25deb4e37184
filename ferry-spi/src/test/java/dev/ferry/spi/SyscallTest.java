package dev.ferry.spi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Each call Ferry makes through the one syscall stub, against the kernel: results, errno, arguments in their places. */
class SyscallTest {
    private static final int ESRCH = 3, EAGAIN = 11;

    @BeforeAll
    static void linux() {
        assumeTrue(Syscall.available(), "not Linux on x86-64 or aarch64: Ferry makes no system calls here");
    }

    @Test
    void killWithSignalZeroTellsALiveProcessFromAGoneOne() throws Exception {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = Syscall.errnoCapture(a);
            long kill = Syscall.number(Syscall.Call.KILL);
            assertEquals(0, Syscall.call(errno, kill, ProcessHandle.current().pid(), 0, 0, 0, 0, 0));
            Process p = new ProcessBuilder("true").start();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "true did not end");
            assertEquals(-1, Syscall.call(errno, kill, p.pid(), 0, 0, 0, 0, 0), "pid " + p.pid() + " was reaped");
            assertEquals(ESRCH, Syscall.errno(errno));
        }
    }

    @Test
    void processExistsWhileItRunsAndNotOnceReaped() throws Exception {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = Syscall.errnoCapture(a);
            assertTrue(Syscall.processExists(errno, ProcessHandle.current().pid()));
            assertTrue(Syscall.processExists(errno, 1), "init exists, though this process may not signal it (EPERM)");
            Process p = new ProcessBuilder("true").start();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "true did not end");
            assertEquals(false, Syscall.processExists(errno, p.pid()), "pid " + p.pid() + " was reaped");
        }
    }

    @Test
    void futexWaitOnAChangedWordAnswersAtOnceAndWakeCountsNoSleepers() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = Syscall.errnoCapture(a);
            MemorySegment word = a.allocate(ValueLayout.JAVA_INT);
            word.set(ValueLayout.JAVA_INT, 0, 7);
            long futex = Syscall.number(Syscall.Call.FUTEX);
            assertEquals(-1, Syscall.call(errno, futex, word.address(), 0 /* FUTEX_WAIT */, 6, 0, 0, 0));
            assertEquals(EAGAIN, Syscall.errno(errno), "the word holds 7, not 6");
            assertEquals(0, Syscall.call(errno, futex, word.address(), 1 /* FUTEX_WAKE */, Integer.MAX_VALUE, 0, 0, 0));
        }
    }

    @Test
    void processVmReadvCopiesBetweenTheIovecsItIsGiven() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = Syscall.errnoCapture(a);
            MemorySegment from = a.allocateFrom("twelve bytes");
            MemorySegment to = a.allocate(12);
            MemorySegment local = a.allocate(16, 8), remote = a.allocate(16, 8); // struct iovec { base; len }
            local.set(ValueLayout.JAVA_LONG, 0, to.address());
            local.set(ValueLayout.JAVA_LONG, 8, 12);
            remote.set(ValueLayout.JAVA_LONG, 0, from.address());
            remote.set(ValueLayout.JAVA_LONG, 8, 12);
            long r = Syscall.call(errno, Syscall.number(Syscall.Call.PROCESS_VM_READV), ProcessHandle.current().pid(),
                    local.address(), 1, remote.address(), 1, 0);
            assumeTrue(r >= 0 || Syscall.errno(errno) != 1, "process_vm_readv is not permitted here (EPERM)");
            assertEquals(12, r);
            assertEquals("twelve bytes", new String(to.toArray(ValueLayout.JAVA_BYTE), java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    @Test
    void openatAndCloseTakeAPathAndADescriptor() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment errno = Syscall.errnoCapture(a);
            long fd = Syscall.call(errno, Syscall.number(Syscall.Call.OPENAT), -100 /* AT_FDCWD */,
                    a.allocateFrom("/proc/self/stat").address(), 0 /* O_RDONLY */, 0, 0, 0);
            assertTrue(fd >= 0, "open failed with errno " + Syscall.errno(errno));
            assertEquals(0, Syscall.call(errno, Syscall.number(Syscall.Call.CLOSE), fd, 0, 0, 0, 0, 0));
            assertEquals(-1, Syscall.call(errno, Syscall.number(Syscall.Call.CLOSE), fd, 0, 0, 0, 0, 0), "closed twice");
            assertEquals(9, Syscall.errno(errno), "EBADF");
        }
    }

    @Test
    void numbersAreThoseOfThisArchitecture() {
        String arch = System.getProperty("os.arch");
        assertEquals(arch.equals("aarch64") ? 98 : 202, Syscall.number(Syscall.Call.FUTEX));
        assertEquals(arch.equals("aarch64") ? 167 : 157, Syscall.number(Syscall.Call.PRCTL));
    }
}
