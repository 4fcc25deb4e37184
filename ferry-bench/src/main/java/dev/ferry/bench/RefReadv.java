package dev.ferry.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.function.Consumer;

/**
 * The kernel's single copy as a bandwidth reference: {@code process_vm_readv} from one off-heap
 * buffer of this process into another, the copy a single-copy driver (shm's offheap path, UCX's
 * cma) asks of the kernel for another process's memory, without the second process. Printed
 * after ref-shm (memcpy) by driver-bandwidth, so a run shows what single copy can reach on the
 * machine at hand.
 */
final class RefReadv {
    static final String NAME = "ref-readv";
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle READV = LINKER.downcallHandle(LINKER.defaultLookup().find("process_vm_readv").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                    ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
    /** struct iovec: base, then length. */
    private static final long IOVEC_BYTES = 16;

    private RefReadv() {
    }

    static void bandwidth(BenchOptions o, List<Long> sizes, Progress progress, Consumer<Result> out) {
        int pid = (int) ProcessHandle.current().pid();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment local = arena.allocate(IOVEC_BYTES, 8);
            MemorySegment remote = arena.allocate(IOVEC_BYTES, 8);
            RefShm.copyBandwidth(NAME, o, sizes, progress, out, (src, dst, size) -> {
                local.set(ValueLayout.JAVA_LONG, 0, dst.address());
                local.set(ValueLayout.JAVA_LONG, 8, size);
                remote.set(ValueLayout.JAVA_LONG, 0, src.address());
                remote.set(ValueLayout.JAVA_LONG, 8, size);
                long n;
                try {
                    n = (long) READV.invokeExact(pid, local, 1L, remote, 1L, 0L);
                } catch (Throwable t) {
                    throw new IllegalStateException("process_vm_readv failed", t);
                }
                if (n != size) {
                    // refused (EPERM under some seccomp profiles, ENOSYS): no reference on this machine
                    throw new IllegalStateException("process_vm_readv copied " + n + " of " + size + " bytes");
                }
            });
        }
    }
}
