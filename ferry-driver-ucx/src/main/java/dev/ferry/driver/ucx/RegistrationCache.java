package dev.ferry.driver.ucx;

import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpMemMapParams;
import org.openucx.jucx.ucp.UcpMemory;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Memory registrations ({@code ucp_mem_map}) kept for reuse, so repeated large sends from one
 * buffer register it once. A registration covers [address, address + length); a lookup finds one
 * that contains the asked range. Registrations in use are pinned; idle ones stay cached up to
 * {@code limitBytes} in all, the least recently used deregistered first.
 *
 * <p>Like every registration cache without memory hooks, it trusts that memory is not unmapped
 * and mapped again at the same address while cached: for RDMA transports that would leave the
 * old pages registered. {@code FERRY_UCX_RCACHE_BYTES=0} keeps nothing cached. Not thread-safe:
 * the context's lock guards it.
 */
final class RegistrationCache {
    /** One registration and its packed remote key. */
    static final class Registration {
        final long address;
        final long length;
        final UcpMemory memory;
        final MemorySegment rkey;
        int users;
        boolean deregistered;

        Registration(long address, long length, UcpMemory memory) {
            this.address = address;
            this.length = length;
            this.memory = memory;
            java.nio.ByteBuffer packed = memory.getRemoteKeyBuffer();
            // Copied to memory of our own: JUCX's buffer lives as long as the registration anyway,
            // but a segment of ours has a known lifetime.
            this.rkey = java.lang.foreign.Arena.ofAuto().allocate(Math.max(1, packed.remaining())).asSlice(0, packed.remaining());
            MemorySegment.copy(MemorySegment.ofBuffer(packed), 0, rkey, 0, packed.remaining());
        }

        boolean contains(long addr, long len) {
            return addr >= address && addr + len <= address + length;
        }
    }

    private final UcpContext context;
    private final long limitBytes;
    /** Cached registrations by start address (the newest when two start alike). */
    private final TreeMap<Long, Registration> byAddress = new TreeMap<>();
    /** Idle cached registrations, least recently used first. */
    private final LinkedHashMap<Registration, Boolean> idle = new LinkedHashMap<>();
    private long idleBytes;
    /** Every registration not yet deregistered, pinned or not: all go when the context closes. */
    private final java.util.Set<Registration> live = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    private long registrations;
    private long hits;

    RegistrationCache(UcpContext context, long limitBytes) {
        this.context = context;
        this.limitBytes = limitBytes;
    }

    /** A registration containing [address, address + length), pinned until {@link #release}. */
    Registration acquire(long address, long length) {
        Map.Entry<Long, Registration> e = byAddress.floorEntry(address);
        if (e != null && e.getValue().contains(address, length)) {
            Registration r = e.getValue();
            if (r.users++ == 0) {
                idle.remove(r);
                idleBytes -= r.length;
            }
            hits++;
            return r;
        }
        Registration r = register(address, length);
        if (limitBytes > 0 && length <= limitBytes) {
            Registration old = byAddress.put(address, r);
            if (old != null && old.users == 0) {
                drop(old); // a smaller registration at the same start, now shadowed
            }
        }
        return r;
    }

    /** A registration of its own for memory that will be freed after use (never cached). */
    Registration acquireUncached(long address, long length) {
        return register(address, length);
    }

    private Registration register(long address, long length) {
        UcpMemory mem = context.memoryMap(new UcpMemMapParams().setAddress(address).setLength(length));
        Registration r = new Registration(address, length, mem);
        r.users = 1;
        registrations++;
        live.add(r);
        return r;
    }

    private void deregister(Registration r) {
        if (!r.deregistered) {
            r.deregistered = true;
            live.remove(r);
            r.memory.deregister();
        }
    }

    /** Unpins; an idle registration stays cached while the bound allows. */
    void release(Registration r) {
        if (--r.users > 0 || r.deregistered) {
            return;
        }
        if (byAddress.get(r.address) != r) {
            deregister(r); // never cached, or shadowed by a newer one
            return;
        }
        idle.put(r, Boolean.TRUE);
        idleBytes += r.length;
        while (idleBytes > limitBytes && !idle.isEmpty()) {
            drop(idle.keySet().iterator().next());
        }
    }

    private void drop(Registration r) {
        if (idle.remove(r) != null) {
            idleBytes -= r.length;
        }
        byAddress.remove(r.address, r);
        deregister(r);
    }

    /** The context closes: deregisters everything, pinned or not. */
    void clear() {
        for (Registration r : live.toArray(new Registration[0])) {
            deregister(r);
        }
        idle.clear();
        idleBytes = 0;
        byAddress.clear();
    }

    long registrations() {
        return registrations;
    }

    long hits() {
        return hits;
    }

    long idleBytes() {
        return idleBytes;
    }
}
