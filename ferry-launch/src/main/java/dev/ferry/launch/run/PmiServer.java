package dev.ferry.launch.run;

import dev.ferry.launch.pmi.PmiException;
import dev.ferry.launch.pmi.PmiWire;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static dev.ferry.launch.pmi.PmiWire.v1;

/**
 * The PMI-1 server embedded in {@code ferry run} and in each host's proxy, on loopback: put, get,
 * barrier (fence), abort, finalize, and MPICH's port-mode initack, for the {@code localRanks} of a
 * job of {@code size} ranks that run on this host. A thread per rank; the key-value space and the
 * fence's completion are the {@link Exchange}'s. A client asking for PMI-2 is answered with
 * version 1, which a negotiating client takes.
 *
 * <p>A rank whose connection ends after it was past a fence (it finalized, or its process died
 * and the job goes on without it) is not waited for at later fences: the survivors of a rank
 * killed meet at their close at once rather than after their bound. A rank gone before its first
 * fence is still waited for (its keys are missing; the job runner ends such a job).
 */
public final class PmiServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(PmiServer.class.getName());
    static final int KEY_MAX = 64;
    static final int VALUE_MAX = 1024;
    static final int KVSNAME_MAX = 256;

    /** What the job runner hears from the ranks. */
    public interface Events {
        /** A rank asked to abort the job. */
        void aborted(int rank, int exitCode);

        /** The {@code number}-th barrier (1-based) completed: every rank is past it. */
        void barrierCompleted(int number);
    }

    private final int size;
    private final int localRanks;
    private final Exchange exchange;
    private final String kvsname;
    private final Events events;
    private final ServerSocket server;
    private final List<Conn> inBarrier = new ArrayList<>();
    /** Ranks gone after a fence: later fences complete without them (guarded by {@link #inBarrier}). */
    private int departed;
    private final List<Socket> sockets = new ArrayList<>();
    private int barriers;
    private volatile boolean closing;

    private final class Conn {
        final OutputStream out;
        int rank = -1;
        /** Whether a fence this rank was in has completed (guarded by {@link #inBarrier}). */
        boolean pastFence;

        Conn(OutputStream out) {
            this.out = out;
        }

        void send(String line) throws IOException {
            synchronized (this) {
                out.write(line.getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
        }
    }

    /** The server of a job whose {@code size} ranks all run on this host. */
    public PmiServer(int size, String kvsname, Events events) throws IOException {
        this(size, size, kvsname, events, Exchange.local());
    }

    /** The server of {@code localRanks} of a job of {@code size} ranks, over {@code exchange}. */
    public PmiServer(int size, int localRanks, String kvsname, Events events, Exchange exchange) throws IOException {
        if (kvsname.length() > KVSNAME_MAX) {
            throw new IllegalArgumentException("kvsname longer than " + KVSNAME_MAX);
        }
        this.size = size;
        this.localRanks = localRanks;
        this.exchange = exchange;
        this.kvsname = kvsname;
        this.events = events;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), localRanks + 16);
        Thread.ofPlatform().daemon().name("ferry-pmi-accept").start(this::acceptLoop);
    }

    /** HOST:PORT for the ranks' PMI_PORT. */
    public String address() {
        return server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
    }

    private void acceptLoop() {
        while (!closing) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);
                synchronized (sockets) {
                    sockets.add(s);
                }
                Thread.ofPlatform().daemon().name("ferry-pmi-conn").start(() -> serve(s));
            } catch (IOException e) {
                if (!closing) {
                    LOG.log(System.Logger.Level.WARNING, "ferry run: PMI server accept failed: {0}", e.getMessage());
                }
                return;
            }
        }
    }

    private void serve(Socket s) {
        Conn c;
        try {
            c = new Conn(s.getOutputStream());
        } catch (IOException e) {
            return;
        }
        try (BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.length() > PmiWire.MAX_MESSAGE) {
                    throw new PmiException("PMI line too long");
                }
                if (line.isBlank()) {
                    continue;
                }
                if (!handle(c, PmiWire.parseV1(line))) {
                    return;
                }
            }
        } catch (IOException | RuntimeException e) {
            if (!closing) {
                LOG.log(System.Logger.Level.DEBUG, "ferry run: PMI connection of rank {0} ended: {1}", c.rank, e.getMessage());
            }
        } finally {
            depart(c);
            try {
                s.close();
            } catch (IOException ignored) {
                // done
            }
        }
    }

    /** {@code c}'s connection ended: once past a fence, it is not waited for at the later ones. */
    private void depart(Conn c) {
        List<Conn> release = null;
        synchronized (inBarrier) {
            if (!c.pastFence || closing) {
                return;
            }
            departed++; // once: a connection ends once
            inBarrier.remove(c);
            release = takeIfAllIn();
        }
        if (release != null) {
            complete(release);
        }
    }

    /** Handles one request; false when the connection is finished. */
    private boolean handle(Conn c, PmiWire.Message m) throws IOException {
        switch (m.cmd()) {
            case "initack" -> {
                c.rank = m.getInt("pmiid", -1);
                if (c.rank < 0 || c.rank >= size) {
                    c.send(v1("initack", "rc", "-1", "msg", "pmiid_out_of_range"));
                    return false;
                }
                c.send("cmd=initack\ncmd=set size=" + size + "\ncmd=set rank=" + c.rank + "\ncmd=set debug=0\n");
            }
            case "init" -> c.send(v1("response_to_init", "pmi_version", "1", "pmi_subversion", "1", "rc", "0"));
            case "get_maxes" -> c.send(v1("maxes", "kvsname_max", String.valueOf(KVSNAME_MAX),
                    "keylen_max", String.valueOf(KEY_MAX), "vallen_max", String.valueOf(VALUE_MAX)));
            case "get_appnum" -> c.send(v1("appnum", "appnum", "0"));
            case "get_universe_size" -> c.send(v1("universe_size", "size", String.valueOf(size)));
            case "get_my_kvsname" -> c.send(v1("my_kvsname", "kvsname", kvsname));
            case "put" -> {
                String key = m.get("key");
                String value = m.get("value");
                if (key == null || value == null) {
                    c.send(v1("put_result", "rc", "-1", "msg", "key_or_value_missing"));
                } else if (key.length() > KEY_MAX || value.length() > VALUE_MAX) {
                    c.send(v1("put_result", "rc", "-1", "msg", "key_or_value_too_long"));
                } else {
                    exchange.put(key, value);
                    c.send(v1("put_result", "rc", "0", "msg", "success"));
                }
            }
            case "get" -> {
                String v = m.get("key") == null ? null : exchange.get(m.get("key"));
                c.send(v == null ? v1("get_result", "rc", "-1", "msg", "key_not_found")
                        : v1("get_result", "rc", "0", "msg", "success", "value", v));
            }
            case "barrier_in" -> barrier(c);
            case "finalize" -> {
                c.send(v1("finalize_ack"));
                return false;
            }
            case "abort" -> {
                events.aborted(c.rank, m.getInt("exitcode", 1));
                return false;
            }
            default -> c.send(v1(m.cmd() + "_result", "rc", "-1", "msg", "unknown_command"));
        }
        return true;
    }

    private void barrier(Conn c) {
        List<Conn> release = null;
        synchronized (inBarrier) {
            inBarrier.add(c);
            release = takeIfAllIn();
        }
        if (release != null) {
            complete(release);
        }
    }

    /** The ranks in the fence, taken out, once every rank still here is in it; else null (under {@link #inBarrier}). */
    private List<Conn> takeIfAllIn() {
        if (inBarrier.isEmpty() || inBarrier.size() != localRanks - departed) {
            return null;
        }
        List<Conn> all = new ArrayList<>(inBarrier);
        inBarrier.clear();
        return all;
    }

    /** Every rank still here is in the fence: this host's part is done; the exchange completes it. */
    private void complete(List<Conn> all) {
        exchange.fence(() -> {
            int number;
            synchronized (inBarrier) {
                number = ++barriers;
                for (Conn r : all) {
                    r.pastFence = true;
                }
            }
            events.barrierCompleted(number);
            for (Conn r : all) {
                try {
                    r.send(v1("barrier_out"));
                } catch (IOException e) {
                    LOG.log(System.Logger.Level.DEBUG, "ferry run: rank {0} left before its fence ended: {1}", r.rank, e.getMessage());
                }
            }
        });
    }

    @Override
    public void close() {
        closing = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
        synchronized (sockets) {
            for (Socket s : sockets) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing
                }
            }
        }
    }
}
