package dev.ferry.driver.ucx;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpParams;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Against a real UCP context (shared-memory transports: cma registers ordinary memory). */
class RegistrationCacheTest {
    private UcpContext ucp;
    private Arena arena;

    @BeforeEach
    void open() {
        assertNull(UcxLibrary.problem(), "UCX must be usable on this machine (CI installs libucx0)");
        ucp = new UcpContext(new UcpParams().requestTagFeature().requestRmaFeature().setConfig("TLS", "sm"));
        arena = Arena.ofShared();
    }

    @AfterEach
    void close() {
        ucp.close();
        arena.close();
    }

    @Test
    void aRangeInsideACachedRegistrationRegistersNothing() {
        RegistrationCache c = new RegistrationCache(ucp, 1 << 30);
        MemorySegment m = arena.allocate(1 << 20, 4096);
        RegistrationCache.Registration r = c.acquire(m.address(), m.byteSize());
        assertTrue(r.rkey.byteSize() > 0, "a packed remote key");
        c.release(r);
        assertEquals(m.byteSize(), c.idleBytes());
        RegistrationCache.Registration again = c.acquire(m.address() + 4096, 8192);
        assertSame(r, again, "contained range: the cached registration");
        assertEquals(1, c.registrations());
        assertEquals(1, c.hits());
        assertEquals(0, c.idleBytes(), "pinned again");
        c.release(again);
        c.clear();
    }

    @Test
    void idleRegistrationsBeyondTheBoundLeaveLeastRecentlyUsedFirst() {
        RegistrationCache c = new RegistrationCache(ucp, 3 * 65536);
        MemorySegment[] bufs = new MemorySegment[4];
        RegistrationCache.Registration[] regs = new RegistrationCache.Registration[4];
        for (int i = 0; i < 4; i++) {
            bufs[i] = arena.allocate(65536, 4096);
            regs[i] = c.acquire(bufs[i].address(), 65536);
        }
        for (int i = 0; i < 4; i++) {
            c.release(regs[i]);
        }
        assertEquals(3 * 65536, c.idleBytes(), "the oldest went over the bound");
        assertTrue(regs[0].deregistered);
        assertSame(regs[3], c.acquire(bufs[3].address(), 65536), "the newest stayed");
        RegistrationCache.Registration fresh = c.acquire(bufs[0].address(), 65536);
        assertNotSame(regs[0], fresh, "the evicted one is registered anew");
        assertEquals(5, c.registrations());
        c.clear();
        assertTrue(fresh.deregistered && regs[3].deregistered, "clear deregisters pinned ones too");
    }

    @Test
    void aZeroBoundCachesNothingAndUncachedStaysOut() {
        RegistrationCache c = new RegistrationCache(ucp, 0);
        MemorySegment m = arena.allocate(65536, 4096);
        RegistrationCache.Registration r = c.acquire(m.address(), 65536);
        c.release(r);
        assertTrue(r.deregistered);
        RegistrationCache big = new RegistrationCache(ucp, 1 << 30);
        RegistrationCache.Registration u = big.acquireUncached(m.address(), 65536);
        big.release(u);
        assertTrue(u.deregistered, "an uncached registration goes at release");
        assertEquals(0, big.idleBytes());
    }
}
