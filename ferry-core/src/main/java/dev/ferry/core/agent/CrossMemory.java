package dev.ferry.core.agent;

import dev.ferry.spi.Syscall;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.Map;

/**
 * One rank's memory as the agent reaches it (seed 003's {@code validate} and cross-domain
 * {@code write}): the rank registers a stretch once ({@link #register}: address and length, in
 * the process whose pid its socket's credentials gave), and the agent then reads and writes
 * within it with {@code process_vm_readv} / {@code process_vm_writev}, straight between the
 * rank's bytes and its own. A handle names one registration of this rank alone, and every
 * access is checked against it before any byte moves: the rank cannot make the agent touch
 * memory it did not register. Used by the agent's dispatch thread alone.
 */
public final class CrossMemory implements AutoCloseable {
    /** Bytes the agent stages at a time when it copies from one registration to another. */
    static final long STAGE = 1 << 20;

    private record Region(long address, long length) {
    }

    private final long pid;
    private final Map<Long, Region> regions = new HashMap<>();
    private long next = 1;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment local = arena.allocate(16, 8);
    private final MemorySegment remote = arena.allocate(16, 8);
    private final MemorySegment errno = Syscall.errnoCapture(arena);
    private MemorySegment stage;

    /** The memory of process {@code pid}. */
    public CrossMemory(long pid) {
        this.pid = pid;
    }

    public long pid() {
        return pid;
    }

    /** Registers {@code length} bytes at {@code address}: their handle. */
    public long register(long address, long length) {
        if (address == 0 || length <= 0 || address + length < address) {
            throw new AgentException(AgentError.BAD_ARGUMENTS, "register " + length + " bytes at " + Long.toHexString(address));
        }
        long h = next++;
        regions.put(h, new Region(address, length));
        return h;
    }

    /** Forgets registration {@code handle}; whether it was one. */
    public boolean deregister(long handle) {
        return regions.remove(handle) != null;
    }

    /** How many registrations there are. */
    public int registrations() {
        return regions.size();
    }

    /** Checks that {@code length} bytes from {@code offset} of {@code handle} are registered, for an operation to come. */
    public void check(long handle, long offset, long length, String what) {
        checked(handle, offset, length, what);
    }

    /** The address of {@code length} bytes from {@code offset} of registration {@code handle}, checked. */
    private long checked(long handle, long offset, long length, String what) {
        Region r = regions.get(handle);
        if (r == null) {
            throw new AgentException(AgentError.NOT_REGISTERED, what + ": handle " + handle);
        }
        if (offset < 0 || length < 0 || offset > r.length || length > r.length - offset) {
            throw new AgentException(AgentError.OUT_OF_BOUNDS, what + ": " + length + " bytes from offset " + offset + " of a registration of "
                    + r.length);
        }
        return r.address + offset;
    }

    /** Reads {@code into}'s length of bytes from {@code offset} of registration {@code handle}. */
    public void read(long handle, long offset, MemorySegment into) {
        long at = checked(handle, offset, into.byteSize(), "read");
        move(Syscall.Call.PROCESS_VM_READV, into, at, "read");
    }

    /** Writes {@code from} at {@code offset} of registration {@code handle}. */
    public void write(long handle, long offset, MemorySegment from) {
        long at = checked(handle, offset, from.byteSize(), "write");
        move(Syscall.Call.PROCESS_VM_WRITEV, from, at, "write");
    }

    /**
     * Copies {@code length} bytes from one registration to another, both checked before a byte
     * moves, through the agent's memory a stage at a time; the bytes copied.
     */
    public long copy(long from, long fromOffset, long to, long toOffset, long length) {
        long src = checked(from, fromOffset, length, "copy from");
        long dst = checked(to, toOffset, length, "copy to");
        if (stage == null) {
            stage = arena.allocate(STAGE, 4096);
        }
        for (long done = 0; done < length; ) {
            long n = Math.min(STAGE, length - done);
            MemorySegment s = stage.asSlice(0, n);
            move(Syscall.Call.PROCESS_VM_READV, s, src + done, "copy from");
            move(Syscall.Call.PROCESS_VM_WRITEV, s, dst + done, "copy to");
            done += n;
        }
        return length;
    }

    /**
     * Reads {@code into}'s length of bytes at {@code address} of the process: for memory the
     * caller checked against a slot the rank posted ({@link AgentPulls}).
     */
    void readAt(long address, MemorySegment into) {
        move(Syscall.Call.PROCESS_VM_READV, into, address, "read");
    }

    /** Writes {@code from} at {@code address} of the process, checked as for {@link #readAt}. */
    void writeAt(long address, MemorySegment from) {
        move(Syscall.Call.PROCESS_VM_WRITEV, from, address, "write");
    }

    /** One process_vm_readv or writev of all of {@code mine} at {@code theirs}. */
    private void move(Syscall.Call call, MemorySegment mine, long theirs, String what) {
        if (!mine.isNative()) {
            throw new IllegalArgumentException(what + ": the agent's side of a copy must be native memory");
        }
        long n = mine.byteSize();
        for (long done = 0; done < n; ) {
            local.set(ValueLayout.JAVA_LONG, 0, mine.address() + done);
            local.set(ValueLayout.JAVA_LONG, 8, n - done);
            remote.set(ValueLayout.JAVA_LONG, 0, theirs + done);
            remote.set(ValueLayout.JAVA_LONG, 8, n - done);
            long r = Syscall.call(errno, Syscall.number(call), pid, local.address(), 1, remote.address(), 1, 0);
            if (r <= 0) { // ESRCH: gone; EFAULT: unmapped since it registered; EPERM: not ours to reach
                throw new AgentException(AgentError.UNREACHABLE, what + " in process " + pid + " (errno " + (r < 0 ? Syscall.errno(errno) : 0) + ")");
            }
            done += r;
        }
    }

    @Override
    public void close() {
        regions.clear();
        arena.close();
    }
}
