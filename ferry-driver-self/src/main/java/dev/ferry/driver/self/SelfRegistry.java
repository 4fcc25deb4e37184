package dev.ferry.driver.self;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The contexts of this process, by address, and the connections half made between them. Both ends
 * of a connection call {@code connectAsync} with the other's URL; the second call pairs the two
 * instances. Connection set-up is rare, so one lock guards it.
 */
final class SelfRegistry {
    /** Prefix of every self address; the rest names this process and the context. */
    static final String SCHEME = "self:";
    /**
     * Makes addresses of other processes (and other runs of this one) unknown here, never
     * confused with ours. Unique, not secret: no SecureRandom (its provider costs every rank time at start).
     */
    private static final String PROCESS = ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime() ^ System.currentTimeMillis() << 20);
    private static final AtomicLong NEXT = new AtomicLong();

    private static final Map<String, SelfContext> CONTEXTS = new HashMap<>();
    /** Instances that called connectAsync and wait for their peer to do the same. */
    private static final List<SelfInstance> HALF_OPEN = new ArrayList<>();

    private SelfRegistry() {
    }

    /** A new context's address: the process, a number, and the context's rank (what a connection request names). */
    static synchronized String register(SelfContext ctx, int rank) {
        String address = SCHEME + PROCESS + ":" + NEXT.incrementAndGet() + "/" + rank;
        CONTEXTS.put(address, ctx);
        return address;
    }

    static synchronized void unregister(String address) {
        CONTEXTS.remove(address);
        HALF_OPEN.removeIf(i -> i.context().address().equals(address));
        // Instances still waiting for that context will never be paired: the peer is gone.
        for (SelfInstance i : HALF_OPEN) {
            if (i.remoteAddress().equals(address)) {
                i.remoteClosed(dev.ferry.spi.Status.BROKEN);
            }
        }
        HALF_OPEN.removeIf(i -> i.remoteAddress().equals(address));
    }

    /** Whether the bytes look like a self address at all. */
    static boolean isSelfAddress(byte[] address) {
        return new String(address, StandardCharsets.UTF_8).startsWith(SCHEME);
    }

    /**
     * Connects {@code instance} to the context at {@code remote}: pairs it with a half-open
     * instance there that connects back to us, or leaves it half open.
     *
     * @return false when no context of this process has that address
     */
    static synchronized boolean connect(SelfInstance instance, String remote) {
        if (!CONTEXTS.containsKey(remote)) {
            return false;
        }
        String local = instance.context().address();
        for (int i = 0; i < HALF_OPEN.size(); i++) {
            SelfInstance other = HALF_OPEN.get(i);
            if (other.context().address().equals(remote) && other.remoteAddress().equals(local) && other != instance) {
                HALF_OPEN.remove(i);
                SelfInstance.pair(instance, other);
                return true;
            }
        }
        HALF_OPEN.add(instance);
        if (!remote.equals(local)) { // a context connecting to itself makes its second instance at once
            CONTEXTS.get(remote).requested(local); // the peer may not know it should connect: acceptProbe tells it
        }
        return true;
    }

    /** The rank at the end of a self address, or -1. */
    static int rankOf(String address) {
        int slash = address.lastIndexOf('/');
        try {
            return slash < 0 ? -1 : Integer.parseInt(address.substring(slash + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static synchronized void forget(SelfInstance instance) {
        HALF_OPEN.remove(instance);
    }
}
