package dev.ferry;

import dev.ferry.spi.Syscall;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A large temporary of a collective (past what {@link TempPool} keeps) as anonymous memory of its
 * own, mapped with {@code mmap} and advised for transparent huge pages: the kernel's pages come
 * zeroed, so nothing writes gigabytes of zeros first ({@code Arena.allocate} does), and a 2 GiB
 * temporary faults in some 1,000 times instead of some 500,000 (where the kernel's huge pages
 * are on, or on request, as they are by default). Unmapped when its arena closes.
 *
 * <pre>{@code
 * Arena a = Arena.ofShared();
 * MemorySegment m = MappedTemp.map(3L << 30, a);   // null where it cannot: allocate instead
 * a.close();                                        // unmapped
 * }</pre>
 */
final class MappedTemp {
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final int MADV_HUGEPAGE = 14;
    private static final long HUGE_PAGE = 2L << 20;

    private MappedTemp() {
    }

    /** {@code bytes} of fresh zeroed memory freed when {@code arena} closes, or null where it cannot be mapped here. */
    static MemorySegment map(long bytes, Arena arena) {
        if (!Syscall.available()) {
            return null;
        }
        long length = (bytes + HUGE_PAGE - 1) & -HUGE_PAGE;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment errno = Syscall.errnoCapture(call);
            long address = Syscall.call(errno, Syscall.number(Syscall.Call.MMAP), 0, length, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0);
            if (address == -1) {
                return null; // out of address space or a limit: the arena's allocation says so in its own words
            }
            // a hint only: without huge pages the memory is as good, its faults more
            Syscall.call(errno, Syscall.number(Syscall.Call.MADVISE), address, length, MADV_HUGEPAGE, 0, 0, 0);
            return MemorySegment.ofAddress(address).reinterpret(length, arena, m -> unmap(m.address(), length)).asSlice(0, bytes);
        }
    }

    private static void unmap(long address, long length) {
        try (Arena call = Arena.ofConfined()) {
            Syscall.call(Syscall.errnoCapture(call), Syscall.number(Syscall.Call.MUNMAP), address, length, 0, 0, 0, 0);
        }
    }
}
