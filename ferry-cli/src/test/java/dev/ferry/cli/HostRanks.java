package dev.ferry.cli;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.Ferry;
import dev.ferry.Op;
import dev.ferry.Window;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Ranks for the multi-host tests, on the application API. Modes:
 * <ul>
 *   <li>{@code check}: prints {@code rank R host H} (H from the name service, as a user's program
 *   finds it), exchanges 8 B and 512 KiB (eager and rendezvous) with every other rank, checks that
 *   the shared-memory split groups exactly the ranks of its host, runs every collective and a
 *   window epoch checking each result, prints the algorithms the first collectives took (rank 0),
 *   then {@code rank R ok};</li>
 *   <li>{@code stdin}: prints {@code rank R read: LINE} of its standard input's first line, or
 *   {@code rank R read: EOF};</li>
 *   <li>{@code wait}: prints {@code pid PID host H}, then waits for a message nobody sends, until
 *   the test kills a rank, a proxy or the launcher: the job must end, not hang.</li>
 * </ul>
 */
public final class HostRanks {
    private HostRanks() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "check" -> check();
            case "stdin" -> stdin();
            case "wait" -> waitForAll();
            case "links" -> links();
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    private static void stdin() throws Exception {
        String rank = System.getenv("PMI_RANK");
        String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        System.out.println("rank " + rank + " read: " + (line == null ? "EOF" : line));
    }

    private static void waitForAll() throws Exception {
        try (Ferry ferry = Ferry.init()) {
            Comm world = ferry.world();
            world.barrier(); // all wired up
            System.out.println("pid " + ProcessHandle.current().pid() + " host " + InetAddress.getLocalHost().getHostName());
            System.out.flush();
            world.recv(new int[1], 0, 1, Datatype.INT, Ferry.ANY_SOURCE, 99); // nobody sends it: ended by a failure or the launcher
        }
    }

    /**
     * Every pair exchanges, then the first rank of each host counts with {@code ss} the TCP
     * connections established between this host and each other host of the job, while every
     * rank is still up: "links HOST ADDRESS N" per other host.
     */
    private static void links() throws Exception {
        try (Ferry ferry = Ferry.init()) {
            Comm world = ferry.world();
            int me = world.rank(), n = world.size();
            for (int peer = 0; peer < n; peer++) {
                if (peer != me) {
                    long[] in = new long[1];
                    world.sendrecv(new long[] {me}, 0, 1, Datatype.LONG, peer, 6, in, 0, 1, Datatype.LONG, peer, 6);
                    require(in[0] == peer, "from rank " + peer + ": " + in[0]);
                }
            }
            String mine = address();
            byte[] all = new byte[64 * n];
            world.allgather(Arrays.copyOf(mine.getBytes(StandardCharsets.UTF_8), 64), 0, 64, Datatype.BYTE, all, 0, 64, Datatype.BYTE);
            java.util.TreeSet<String> others = new java.util.TreeSet<>();
            for (int r = 0; r < n; r++) {
                String a = new String(all, 64 * r, 64, StandardCharsets.UTF_8).replace("\0", "");
                if (!a.equals(mine)) {
                    others.add(a);
                }
            }
            Comm local = world.splitShared(0);
            world.barrier();
            if (local.rank() == 0) {
                Process ss = new ProcessBuilder("ss", "-tnH", "state", "established").redirectErrorStream(true).start();
                java.util.List<String> lines = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
                require(ss.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) && ss.exitValue() == 0, "ss failed: " + lines);
                String host = InetAddress.getLocalHost().getHostName();
                for (String o : others) {
                    long count = lines.stream().map(l -> l.strip().split("\\s+")).filter(f -> f.length >= 4)
                            .filter(f -> host(f[2]).equals(mine) && host(f[3]).equals(o)).count();
                    System.out.println("links " + host + " " + o + " " + count);
                }
            }
            world.barrier();
        }
    }

    /** The address of an ss "address:port" column: "[::ffff:10.0.0.1]:4000" (a Java socket is IPv6) is 10.0.0.1. */
    private static String host(String column) {
        String a = column.substring(0, column.lastIndexOf(':'));
        return a.replace("[", "").replace("]", "").replace("::ffff:", "");
    }

    /** This host's first address up that is not loopback (IPv4). */
    private static String address() throws Exception {
        for (java.net.NetworkInterface nif : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
            if (nif.isUp() && !nif.isLoopback()) {
                for (InetAddress a : java.util.Collections.list(nif.getInetAddresses())) {
                    if (a instanceof java.net.Inet4Address) {
                        return a.getHostAddress();
                    }
                }
            }
        }
        return "127.0.0.1";
    }

    private static void check() throws Exception {
        try (Ferry ferry = Ferry.init()) {
            Comm world = ferry.world();
            int me = world.rank(), n = world.size();
            String host = InetAddress.getLocalHost().getHostName();
            System.out.println("rank " + me + " host " + host);
            System.out.println("rank " + me + " tls " + System.getenv().getOrDefault("FERRY_TCP_TLS", "off"));
            for (int count : new int[] {1, 64 * 1024}) {
                for (int peer = 0; peer < n; peer++) {
                    if (peer == me) {
                        continue;
                    }
                    long[] out = new long[count], in = new long[count];
                    for (int i = 0; i < count; i++) {
                        out[i] = me * 1_000_000_000L + peer * 1_000_000L + i;
                    }
                    world.sendrecv(out, 0, count, Datatype.LONG, peer, 5, in, 0, count, Datatype.LONG, peer, 5);
                    for (int i = 0; i < count; i++) {
                        if (in[i] != peer * 1_000_000_000L + me * 1_000_000L + i) { // the message only when it fails: it is built per element
                            throw failed("from rank " + peer + " element " + i + ": " + in[i]);
                        }
                    }
                }
            }
            large(world, me, n);
            // the shared-memory split: exactly the ranks on this host
            byte[] name = Arrays.copyOf(host.getBytes(StandardCharsets.UTF_8), 64);
            byte[] names = new byte[64 * n];
            world.allgather(name, 0, 64, Datatype.BYTE, names, 0, 64, Datatype.BYTE);
            int sameHost = 0;
            for (int r = 0; r < n; r++) {
                sameHost += Arrays.equals(name, Arrays.copyOfRange(names, 64 * r, 64 * r + 64)) ? 1 : 0;
            }
            Comm local = world.splitShared(0);
            require(local.size() == sameHost, "splitShared has " + local.size() + " members, this host " + sameHost + " ranks");
            byte[] localNames = new byte[64 * local.size()];
            local.allgather(name, 0, 64, Datatype.BYTE, localNames, 0, 64, Datatype.BYTE);
            for (int r = 0; r < local.size(); r++) {
                require(Arrays.equals(name, Arrays.copyOfRange(localNames, 64 * r, 64 * r + 64)), "splitShared holds a rank of another host");
            }
            collectives(world, me, n);
            window(world, me, n);
            System.out.println("rank " + me + " ok");
        }
    }

    /**
     * With each peer in turn, 1 MiB + 3 bytes from native memory by rendezvous: into native memory
     * (in agent mode the agents pull it between the two ranks' memory) and into a heap array (the
     * agent's pull lands in native memory of the rank's, copied into the array).
     */
    private static void large(Comm world, int me, int n) {
        int size = (1 << 20) + 3;
        try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment out = a.allocate(size), in = a.allocate(size);
            for (int i = 0; i < size; i++) {
                out.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (me * 31 + i * 7));
            }
            byte[] heap = new byte[size], want = new byte[size];
            for (int peer = 0; peer < n; peer++) {
                if (peer == me) {
                    continue;
                }
                for (int i = 0; i < size; i++) {
                    want[i] = (byte) (peer * 31 + i * 7);
                }
                dev.ferry.Request r = world.irecv(in, 0L, size, Datatype.BYTE, peer, 7);
                world.send(out, 0L, size, Datatype.BYTE, peer, 7);
                r.await();
                dev.ferry.Request h = world.irecv(heap, 0, size, Datatype.BYTE, peer, 8);
                world.send(out, 0L, size, Datatype.BYTE, peer, 8);
                h.await();
                long bad = java.lang.foreign.MemorySegment.mismatch(in, 0, size, java.lang.foreign.MemorySegment.ofArray(want), 0, size);
                require(bad < 0, "large from rank " + peer + ", native, first wrong byte " + bad);
                int badHeap = Arrays.mismatch(heap, want);
                require(badHeap < 0, "large from rank " + peer + ", heap, first wrong byte " + badHeap);
            }
        }
    }

    private static void collectives(Comm world, int me, int n) {
        StringBuilder algorithms = new StringBuilder("algorithms");
        world.barrier();
        algorithms.append(" barrier=").append(world.lastCollectiveAlgorithm());
        int[] data = new int[1000];
        if (me == n - 1) {
            Arrays.setAll(data, i -> i * 3);
        }
        world.bcast(data, 0, data.length, Datatype.INT, n - 1);
        algorithms.append(" bcast=").append(world.lastCollectiveAlgorithm());
        for (int i = 0; i < data.length; i++) {
            if (data[i] != i * 3) {
                throw failed("bcast element " + i);
            }
        }
        int[] sum = new int[1];
        world.reduce(new int[] {me}, 0, sum, 0, 1, Datatype.INT, Op.SUM, 1);
        algorithms.append(" reduce=").append(world.lastCollectiveAlgorithm());
        require(me != 1 || sum[0] == n * (n - 1) / 2, "reduce " + sum[0]);
        world.allreduce(new int[] {me}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
        algorithms.append(" allreduce=").append(world.lastCollectiveAlgorithm());
        require(sum[0] == n * (n - 1) / 2, "allreduce " + sum[0]);
        int[] all = new int[n];
        world.allgather(new int[] {me * 7}, 0, 1, Datatype.INT, all, 0, 1, Datatype.INT);
        for (int r = 0; r < n; r++) {
            require(all[r] == r * 7, "allgather " + Arrays.toString(all));
        }
        int[] send = new int[n], recv = new int[n];
        Arrays.setAll(send, r -> me * 100 + r);
        world.alltoall(send, 0, 1, Datatype.INT, recv, 0, 1, Datatype.INT);
        for (int r = 0; r < n; r++) {
            require(recv[r] == r * 100 + me, "alltoall " + Arrays.toString(recv));
        }
        int[] gathered = new int[n];
        world.gather(new int[] {me + 1}, 0, 1, Datatype.INT, gathered, 0, 1, Datatype.INT, 2);
        for (int r = 0; me == 2 && r < n; r++) {
            require(gathered[r] == r + 1, "gather " + Arrays.toString(gathered));
        }
        int[] piece = new int[1];
        world.scatter(gathered, 0, 1, Datatype.INT, piece, 0, 1, Datatype.INT, 2);
        require(piece[0] == me + 1, "scatter " + piece[0]);
        world.scan(new int[] {1}, 0, sum, 0, 1, Datatype.INT, Op.SUM);
        require(sum[0] == me + 1, "scan " + sum[0]);
        int[] block = new int[1];
        int[] contributions = new int[n];
        Arrays.fill(contributions, me);
        world.reduceScatterBlock(contributions, 0, block, 0, 1, Datatype.INT, Op.SUM);
        require(block[0] == n * (n - 1) / 2, "reduce_scatter_block " + block[0]);
        if (me == 0) {
            System.out.println(algorithms);
        }
    }

    private static void window(Comm world, int me, int n) {
        try (Window w = Window.allocate(world, 8L * n, 8)) {
            w.fence();
            for (int t = 0; t < n; t++) {
                w.put(new long[] {me * 10L + 1}, 0, 1, Datatype.LONG, t, me);
            }
            w.fence();
            for (int r = 0; r < n; r++) {
                long v = w.memory().getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, r);
                require(v == r * 10L + 1, "window slot " + r + " holds " + v);
            }
            long[] got = new long[1];
            w.get(got, 0, 1, Datatype.LONG, (me + 1) % n, (me + 2) % n);
            w.fence();
            require(got[0] == (me + 2) % n * 10L + 1, "get " + got[0]);
        }
    }

    private static void require(boolean ok, String what) {
        if (!ok) {
            throw failed(what);
        }
    }

    private static AssertionError failed(String what) {
        return new AssertionError("rank check failed: " + what);
    }
}
