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
 *
 * <p>Memory the rank has in a shared mapping of a file (the shared-memory driver's arena, which
 * {@code Ferry.allocate} hands out) the agent can map too ({@link #map}, seed 003's validate
 * translating memory once for the library's fast use, as the Portals reference's PPE maps its
 * clients' memory with XPMEM): its bytes then move between a link and that memory with no copy
 * in the agent's own memory, and reads and writes there are plain copies, not system calls.
 */
public final class CrossMemory implements AutoCloseable {
    /** Bytes the agent stages at a time when it copies from one registration to another. */
    static final long STAGE = 1 << 20;

    private record Region(long address, long length) {
    }

    /** A stretch of the rank's memory that the agent mapped too: {@code here} is the same bytes in the agent. */
    record Mapping(long address, long length, MemorySegment here) {
        boolean holds(long at, long n) {
            return at >= address && n >= 0 && at - address <= length - n;
        }
    }

    private final long pid;
    private final Map<Long, Region> regions = new HashMap<>();
    /** The rank's memory mapped here too (a few: one per arena allocation); kept until the rank leaves. */
    private final java.util.List<Mapping> mappings = new java.util.ArrayList<>();
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

    /**
     * Maps the rank's {@code length} bytes at {@code address} into the agent too, when the rank
     * has them in one shared mapping of a file (its {@code /proc/pid/maps} says which, and the
     * file opened is checked to be that one, by device and inode): whether they are now mapped.
     * False for memory that is no such mapping (anonymous or private), which the agent reaches
     * with {@code process_vm_readv}/{@code writev} as ever. The mapping lasts until the rank
     * leaves: it is for memory the rank keeps as long (its shared arena).
     */
    public boolean map(long address, long length) {
        if (address == 0 || length <= 0 || address + length < address) {
            throw new AgentException(AgentError.BAD_ARGUMENTS, "map " + length + " bytes at " + Long.toHexString(address));
        }
        if (mapping(address, length) != null) {
            return true;
        }
        java.util.List<String> lines;
        try {
            lines = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc", Long.toString(pid), "maps"));
        } catch (java.io.IOException e) {
            throw new AgentException(AgentError.UNREACHABLE, "map: the memory map of process " + pid + ": " + e.getMessage());
        }
        for (String line : lines) {
            MapsLine m = MapsLine.parse(line);
            if (m != null && address >= m.start() && address + length <= m.end()) {
                MemorySegment here = m.sharedFile() ? mapFile(m, address, length) : null;
                if (here != null) {
                    mappings.add(new Mapping(address, length, here));
                }
                return here != null;
            }
        }
        throw new AgentException(AgentError.UNREACHABLE, "map: " + length + " bytes at " + Long.toHexString(address) + " lie in no one mapping of process " + pid);
    }

    /** The file of {@code m} mapped here from where {@code address} lies in it; null when the file is not the one mapped there. */
    private MemorySegment mapFile(MapsLine m, long address, long length) {
        java.nio.file.Path file = java.nio.file.Path.of(m.path());
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.READ,
                java.nio.file.StandardOpenOption.WRITE, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            Map<String, Object> a = java.nio.file.Files.readAttributes(file, "unix:ino,dev", java.nio.file.LinkOption.NOFOLLOW_LINKS);
            if (((Number) a.get("ino")).longValue() != m.inode() || ((Number) a.get("dev")).longValue() != m.device()) {
                return null; // replaced since it was mapped: not the rank's memory
            }
            return ch.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, m.offset() + (address - m.start()), length, arena);
        } catch (java.io.IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return null; // gone, or not ours to open: reached by system calls instead
        }
    }

    /** The mapping that holds {@code length} bytes at {@code address} of the rank; null when none does. */
    Mapping mapping(long address, long length) {
        for (int i = 0; i < mappings.size(); i++) {
            Mapping m = mappings.get(i);
            if (m.holds(address, length)) {
                return m;
            }
        }
        return null;
    }

    /**
     * The rank's {@code length} bytes at {@code address} as mapped here, or null where no mapping
     * holds them all. The same arguments give the same view again: a published entry is served
     * again and again, and the agent runs the client compiler alone, so a view made per operation
     * would be an object each. Mappings stay until the rank leaves, and so does a view.
     */
    MemorySegment view(long address, long length) {
        if (view != null && address == viewAddress && length == viewLength) {
            return view;
        }
        Mapping m = length < 0 ? null : mapping(address, length);
        if (m == null) {
            return null;
        }
        view = m.here().asSlice(address - m.address(), length);
        viewAddress = address;
        viewLength = length;
        return view;
    }

    /** The view {@link #view} gave last, and the range it is of. */
    private long viewAddress, viewLength;
    private MemorySegment view;

    /** Bytes that moved between a link and the rank's mapped memory, with no copy in the agent's own. */
    private long linked;

    /** {@code n} bytes moved between a link and the rank's mapped memory. */
    void linked(long n) {
        linked += n;
    }

    /** Bytes that moved between a link and the rank's mapped memory, with no copy in the agent's own. */
    public long linkedBytes() {
        return linked;
    }

    /**
     * {@code length} bytes at {@code address} of the rank where the agent mapped them, as a buffer
     * a link reads into or writes from; null when they are not mapped, or too long for one buffer.
     */
    java.nio.ByteBuffer mappedView(long address, long length) {
        Mapping m = length > 0 && length <= Integer.MAX_VALUE ? mapping(address, length) : null;
        return m == null ? null : m.here.asSlice(address - m.address, length).asByteBuffer();
    }

    /** How many stretches of the rank's memory the agent mapped. */
    public int mapped() {
        return mappings.size();
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
        Mapping m = mapping(address, into.byteSize());
        if (m != null) {
            MemorySegment.copy(m.here, address - m.address, into, 0, into.byteSize());
        } else {
            move(Syscall.Call.PROCESS_VM_READV, into, address, "read");
        }
    }

    /** Writes {@code from} at {@code address} of the process, checked as for {@link #readAt}. */
    void writeAt(long address, MemorySegment from) {
        Mapping m = mapping(address, from.byteSize());
        if (m != null) {
            MemorySegment.copy(from, 0, m.here, address - m.address, from.byteSize());
        } else {
            move(Syscall.Call.PROCESS_VM_WRITEV, from, address, "write");
        }
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
        mappings.clear();
        view = null;
        arena.close();
    }
}
