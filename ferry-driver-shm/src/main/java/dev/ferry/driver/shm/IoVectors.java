package dev.ferry.driver.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Arrays of struct iovec for process_vm_readv and process_vm_writev, and going on after a partial
 * transfer: the kernel stops where it cannot go on, and the caller continues from there.
 */
final class IoVectors {
    private IoVectors() {
    }

    static void set(MemorySegment iov, int i, long address, long length) {
        iov.set(ValueLayout.JAVA_LONG, i * Native.IOVEC_BYTES, address);
        iov.set(ValueLayout.JAVA_LONG, i * Native.IOVEC_BYTES + 8, length);
    }

    /** Removes {@code consumed} bytes from the front of an iovec array. */
    private static void trim(MemorySegment iov, int count, long consumed) {
        for (int i = 0; i < count && consumed > 0; i++) {
            long len = iov.get(ValueLayout.JAVA_LONG, i * Native.IOVEC_BYTES + 8);
            long take = Math.min(len, consumed);
            iov.set(ValueLayout.JAVA_LONG, i * Native.IOVEC_BYTES, iov.get(ValueLayout.JAVA_LONG, i * Native.IOVEC_BYTES) + take);
            iov.set(ValueLayout.JAVA_LONG, i * Native.IOVEC_BYTES + 8, len - take);
            consumed -= take;
        }
    }

    /** Drops the empty entries at the front; returns the new count. */
    private static int compact(MemorySegment iov, int count) {
        int skip = 0;
        while (skip < count && iov.get(ValueLayout.JAVA_LONG, skip * Native.IOVEC_BYTES + 8) == 0) {
            skip++;
        }
        if (skip > 0) {
            MemorySegment.copy(iov, skip * Native.IOVEC_BYTES, iov, 0, (count - skip) * Native.IOVEC_BYTES);
        }
        return count - skip;
    }

    /**
     * Moves {@code total} bytes between the {@code nl} local and {@code nr} remote entries, with
     * process_vm_writev ({@code write}) or process_vm_readv, going on after partial transfers.
     * Returns {@code total}, or -errno (EFAULT when the kernel moved nothing).
     */
    static long transfer(boolean write, MemorySegment errno, long pid, MemorySegment local, int nl, MemorySegment remote, int nr, long total) {
        long done = 0;
        while (done < total) {
            long r = write ? Native.writev(errno, pid, local, nl, remote, nr) : Native.readv(errno, pid, local, nl, remote, nr);
            if (r < 0) {
                return r;
            }
            if (r == 0) {
                return -Native.EFAULT;
            }
            done += r;
            if (done < total) {
                trim(local, nl, r);
                nl = compact(local, nl);
                trim(remote, nr, r);
                nr = compact(remote, nr);
            }
        }
        return total;
    }
}
