package dev.ferry.conformance;

import dev.ferry.spi.Capabilities;
import dev.ferry.spi.DataCursor;
import dev.ferry.spi.DataLayout;
import dev.ferry.spi.Driver;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverProperties;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Settings;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static dev.ferry.conformance.Transfers.allocate;
import static dev.ferry.conformance.Transfers.await;
import static dev.ferry.conformance.Transfers.checkPattern;
import static dev.ferry.conformance.Transfers.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The conformance kit's fixture: the test end (a context of rank 0 in this JVM), its peers
 * (agents in child JVMs or threads), and the bounded helpers the tests of
 * {@link DriverConformanceTest} share. A driver module extends {@link DriverConformanceTest}.
 */
public abstract class ConformanceFixture {
    /** Largest packet the kit sends, whatever larger maximum a driver declares (memory on a test machine). */
    public static final long MAX_TESTED_PACKET = 256L << 20;

    /** Where the far ends run. */
    public enum PeerMode { THREAD, PROCESS }

    /** A fresh instance of the driver under test. */
    protected abstract Driver driver();

    protected abstract PeerMode peerMode();

    /** JVM options for peer processes. */
    protected List<String> peerJvmOptions() {
        return List.of();
    }

    /**
     * The settings both ends' contexts read (default: the environment). Values given explicitly
     * reach peer JVMs as their environment variables, so both ends run alike.
     */
    protected Settings settings() {
        return Settings.fromEnvironment();
    }

    /**
     * Whether the context receives from all its peers through one queue, in the order packets
     * arrived (a shared receive queue): probe-any then serves in arrival order, not in turns
     * across instances, and only each instance's own order is checked.
     */
    protected boolean sharedReceiveQueue() {
        return false;
    }

    /**
     * System property: a command to start peer JVMs under, words separated by spaces (e.g.
     * {@code ip netns exec ns2}), so that a run can put the two ends on two network hosts.
     */
    public static final String PEER_PREFIX_PROPERTY = "ferry.conformance.peer.prefix";
    /** System property: {@code KEY=VALUE} pairs separated by spaces, added to the peer JVMs' environment. */
    public static final String PEER_ENV_PROPERTY = "ferry.conformance.peer.env";

    private static List<String> peerPrefix() {
        String p = System.getProperty(PEER_PREFIX_PROPERTY, "").strip();
        return p.isEmpty() ? List.of() : List.of(p.split("\\s+"));
    }

    private static Map<String, String> peerEnv() {
        Map<String, String> env = new java.util.LinkedHashMap<>();
        String p = System.getProperty(PEER_ENV_PROPERTY, "").strip();
        if (!p.isEmpty()) {
            for (String kv : p.split("\\s+")) {
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException(PEER_ENV_PROPERTY + ": '" + kv + "' is not KEY=VALUE");
                }
                env.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
        }
        return env;
    }

    private Map<String, String> peerEnvWithSettings() {
        Map<String, String> env = new java.util.LinkedHashMap<>(settings().explicitValues());
        env.putAll(peerEnv());
        return env;
    }

    DriverContext ctx;
    DriverProperties props;
    Capabilities caps;
    DriverUrl url;
    final List<PeerLink> peers = new ArrayList<>();
    final ExecutorService helper = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "kit-helper");
        t.setDaemon(true);
        return t;
    });

    @BeforeEach
    final void openTestEnd() {
        ctx = driver().newContext(new Hints(2, 0, true, Map.of(), settings()));
        props = ctx.properties();
        caps = props.capabilities();
        url = ctx.init();
    }

    @AfterEach
    final void closeEverything() {
        try {
            for (PeerLink p : peers) {
                if (!p.isProcess() || isAlive(p)) {
                    String report = p.exchange("report");
                    if (!report.startsWith("ok")) {
                        fail("peer reported a failure: " + report);
                    }
                }
            }
        } finally {
            for (PeerLink p : peers) {
                p.close();
            }
            ctx.close();
            helper.shutdownNow();
        }
    }

    static boolean isAlive(PeerLink p) {
        try {
            p.exchange("finished 0");
            return true;
        } catch (AssertionError e) {
            return false;
        }
    }

    PeerLink newPeer() {
        PeerLink p = peerMode() == PeerMode.PROCESS
                ? PeerLink.inProcess(driver().getClass(), peerJvmOptions(), peerPrefix(), peerEnvWithSettings())
                : PeerLink.inThread(driver(), settings());
        peers.add(p);
        return p;
    }

    /** Opens {@code k} contexts in {@code peer}, connects one test instance to each, and starts {@code mode} there. */
    List<DriverInstance> connect(PeerLink peer, int k, String mode) {
        String[] urls = peer.call("open " + k).split(" ");
        assertEquals(k, urls.length, "peer URLs");
        List<DriverInstance> list = new ArrayList<>();
        for (int c = 0; c < k; c++) {
            DriverInstance inst = ctx.newInstance();
            assertEquals(Status.DONE, inst.connectAsync(DriverUrl.parse(urls[c])), "connectAsync to peer context " + c);
            assertEquals("DONE", peer.call("connect " + c + " " + url.toText()), "peer connectAsync");
            peer.call("serve " + c + " " + mode);
            list.add(inst);
        }
        for (DriverInstance inst : list) {
            Status s = waitBounded(inst::connectWait, "connectWait");
            assertTrue(s == Status.DONE || s == Status.NOT_IMPLEMENTED, "connectWait answered " + s);
        }
        return list;
    }

    DriverInstance connectEcho() {
        return connect(newPeer(), 1, "echo").get(0);
    }

    /** Runs a blocking driver call on a helper thread, failing if it does not return in time. */
    Status waitBounded(java.util.concurrent.Callable<Status> call, String what) {
        try {
            return helper.submit(call).get(Transfers.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(what + " did not return within " + Transfers.TIMEOUT.toSeconds() + " s");
        } catch (Exception e) {
            throw new AssertionError(what + " failed", e);
        }
    }

    long sendAndEcho(DriverInstance inst, Packet sp, Packet rp, MemorySegment out, MemorySegment in) {
        assertEquals(Status.DONE, Transfers.sendContiguous(inst, out, sp), "send of " + out.byteSize() + " bytes");
        return Transfers.recvAny(inst, caps, in, rp);
    }

}
