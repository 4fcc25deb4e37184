package dev.ferry.examples;

import dev.ferry.portals.CtEvent;
import dev.ferry.portals.CtHandle;
import dev.ferry.portals.Md;
import dev.ferry.portals.MdHandle;
import dev.ferry.portals.Me;
import dev.ferry.portals.NiHandle;
import dev.ferry.portals.ProcessId;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

import static dev.ferry.portals.Portals.*;

/**
 * One-sided put and get with the Portals API: every rank exposes a window; each puts a greeting
 * into its right neighbour's window, waits for the ack, and after a barrier gets back what its
 * left neighbour wrote into its own right neighbour's window (a get from a rank two away).
 *
 * <pre>
 *   bin/ferry run -n 4 --example put-get
 * </pre>
 */
public final class PutGet {
    private PutGet() {
    }

    public static void main(String[] args) {
        init();
        try {
            NiHandle ni = niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null).niHandle();
            int rank = getId(ni).rank;
            int size = getMap(ni, 0).actualMapSize();
            int pt = ptAlloc(ni, 0, EQ_NONE, PT_ANY);

            MemorySegment window = Arena.ofShared().allocate(64);
            Me me = new Me();
            me.start = window;
            me.length = window.byteSize();
            me.options = ME_OP_PUT | ME_OP_GET;
            me.matchBits = 0x600d;
            meAppend(ni, pt, me, PRIORITY_LIST, null);
            barrier(); // every window is up

            MemorySegment local = Arena.ofShared().allocate(64);
            CtHandle ct = ctAlloc(ni);
            Md md = new Md();
            md.start = local;
            md.length = local.byteSize();
            md.options = MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY;
            md.ctHandle = ct;
            MdHandle mdh = mdBind(ni, md);

            byte[] hello = String.format("hello from rank %d", rank).getBytes(StandardCharsets.US_ASCII);
            local.copyFrom(MemorySegment.ofArray(hello));
            put(mdh, 0, hello.length, CT_ACK_REQ, ProcessId.ofRank((rank + 1) % size), pt, 0x600d, 0, null, 0);
            CtEvent c = ctWait(ct, 1);
            check(c, "put");
            barrier(); // every put is in

            int from = (rank + 2) % size;
            local.fill((byte) 0);
            get(mdh, 0, window.byteSize(), ProcessId.ofRank(from), pt, 0x600d, 0, null);
            check(ctWait(ct, 2), "get");
            String got = local.getString(0, StandardCharsets.US_ASCII);
            System.out.printf("rank %d: my window holds \"%s\"; rank %d's holds \"%s\"%n", rank,
                    window.getString(0, StandardCharsets.US_ASCII), from, got);
            niFini(ni);
        } finally {
            fini();
        }
    }

    private static void check(CtEvent c, String what) {
        if (c.failure() != 0) {
            throw new IllegalStateException(what + " failed: " + c);
        }
    }
}
