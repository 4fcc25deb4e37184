package dev.ferry.driver.ucx;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpParams;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucp.UcpWorkerParams;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The FFM calls against a real UCP context: two workers of one process over shared memory. */
class UcpTest {
    private static final long TAG = 77;
    private UcpContext ucp;
    private UcpWorker sender;
    private UcpWorker receiver;
    private UcpEndpoint ep;
    private Arena arena;

    @BeforeEach
    void open() {
        assertNull(UcxLibrary.problem(), "UCX must be usable on this machine (CI installs libucx0)");
        ucp = new UcpContext(new UcpParams().requestTagFeature().setConfig("TLS", "sm"));
        sender = ucp.newWorker(new UcpWorkerParams());
        receiver = ucp.newWorker(new UcpWorkerParams());
        ep = sender.newEndpoint(new UcpEndpointParams().setUcpAddress(receiver.getAddress()));
        arena = Arena.ofShared();
    }

    @AfterEach
    void close() throws Exception {
        ep.close();
        sender.close();
        receiver.close();
        ucp.close();
        arena.close();
    }

    /** Progresses both workers until the receive completes; its status. */
    private int await(long request, MemorySegment info) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int s;
        while ((s = Ucp.recvTest(request, info)) == Ucp.INPROGRESS) {
            sender.progress();
            receiver.progress();
            if (System.nanoTime() - end > 0) {
                fail("receive still in progress after 10 s");
            }
        }
        return s;
    }

    @Test
    void aPostedReceiveGetsTheBytesTheTagAndTheLength() throws Exception {
        MemorySegment out = arena.allocate(64, 8);
        MemorySegment in = arena.allocate(64, 8);
        MemorySegment info = arena.allocate(Ucp.INFO_SIZE, 8);
        out.set(ValueLayout.JAVA_LONG, 0, 0x1122334455667788L);
        long r = Ucp.tagRecv(receiver.getNativeId(), in.address(), 64, TAG, UcxWire.FULL_MASK);
        assertTrue(r != 0 && !Ucp.isError(r), "a request for a receive nothing has matched yet");
        long s = Ucp.tagSend(ep.getNativeId(), out.address(), 8, TAG);
        assertFalse(Ucp.isError(s), "send");
        assertEquals(Ucp.OK, await(r, info));
        assertEquals(0x1122334455667788L, in.get(ValueLayout.JAVA_LONG, 0));
        assertEquals(TAG, info.get(ValueLayout.JAVA_LONG, Ucp.INFO_OFF_SENDER_TAG));
        assertEquals(8, info.get(ValueLayout.JAVA_LONG, Ucp.INFO_OFF_LENGTH));
        Ucp.free(r);
        if (s != 0) {
            while (Ucp.check(s) == Ucp.INPROGRESS) {
                sender.progress();
            }
            assertEquals(Ucp.OK, Ucp.check(s));
            Ucp.free(s);
        }
    }

    @Test
    void aReceiveOfAMessageAlreadyWaitingCompletesAtOnce() throws Exception {
        MemorySegment out = arena.allocate(64, 8);
        MemorySegment in = arena.allocate(64, 8);
        out.set(ValueLayout.JAVA_LONG, 0, 42);
        long s = Ucp.tagSend(ep.getNativeId(), out.address(), 8, TAG);
        assertFalse(Ucp.isError(s), "send");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        // the message becomes unexpected once the receiver's worker has taken it in
        while (receiver.tagProbeNonBlocking(TAG, UcxWire.FULL_MASK, false) == null) {
            sender.progress();
            receiver.progress();
            if (System.nanoTime() - end > 0) {
                fail("the message never arrived");
            }
        }
        assertEquals(0, Ucp.tagRecv(receiver.getNativeId(), in.address(), 64, TAG, UcxWire.FULL_MASK), "NULL: received at once");
        assertEquals(42, in.get(ValueLayout.JAVA_LONG, 0));
        if (s != 0) {
            while (Ucp.check(s) == Ucp.INPROGRESS) {
                sender.progress();
            }
            Ucp.free(s);
        }
    }

    @Test
    void aCancelledReceiveEndsCancelledAndStatusesAreSignedBytes() throws Exception {
        MemorySegment in = arena.allocate(64, 8);
        MemorySegment info = arena.allocate(Ucp.INFO_SIZE, 8);
        long r = Ucp.tagRecv(receiver.getNativeId(), in.address(), 64, TAG + 1, UcxWire.FULL_MASK);
        assertNotEquals(0, r);
        assertEquals(Ucp.INPROGRESS, Ucp.recvTest(r, info));
        Ucp.cancel(receiver.getNativeId(), r);
        assertEquals(Ucp.ERR_CANCELED, await(r, info), "UCS_ERR_CANCELED, -16 (not 240: ucs_status_t is one byte)");
        Ucp.free(r);
    }

    @Test
    void errorPointersAreTheLastHundredAddresses() {
        assertTrue(Ucp.isError(-1));
        assertTrue(Ucp.isError(-Ucp.ERR_LAST));
        assertFalse(Ucp.isError(0));
        assertFalse(Ucp.isError(-Ucp.ERR_LAST - 1));
        assertFalse(Ucp.isError(0x7f0000001000L));
    }
}
