package dev.ferry.bench;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.core.driver.DriverCatalog;

import java.io.PrintStream;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code ferry bench driver-latency|driver-bandwidth [options]}: the driver's figures, then the
 * references it is judged against (ref-shm, ref-readv, ref-nio; ref-ucp with ucx), all from one run.
 *
 * <pre>
 *   ferry bench driver-latency --driver self --sizes 0,8,64 --iterations 100000 --format json
 * </pre>
 */
public final class BenchCommand {
    public static final String USAGE = """
            usage: ferry bench (driver-latency | driver-bandwidth | engine-latency | engine-bandwidth |
                                ptl-put-latency | ptl-get-latency | ptl-atomic-latency | ptl-put-bandwidth |
                                put-latency | get-latency | acc-latency | fetch-op-latency | cas-latency |
                                put-bw | get-bw |
                                latency | bw | bibw | mbw-mr |
                                barrier | bcast | reduce | allreduce | allgather | alltoall |
                                agree | shrink | allreduce-init | partitioned | overlap | passive) [options]
                   ferry bench jmh [JMH options]   microbenchmarks, e.g. 'jmh SpiHotPath -prof gc'
       ferry bench report [options]    the whole suite beside the peers found, as a page of plots
                                       (see 'ferry bench report --help')
       ferry bench scale [options]     what a rank of a large job holds, and the cost of a reconnect
                                       (see 'ferry bench scale --help')
              --driver NAME        driver to measure (default self; engine-*: shm); driver-* takes a
                                   list, e.g. shm,ucx, measured one after the other. engine-* runs two
                                   ranks with FERRY_DRIVERS=NAME, after the driver's own figures;
                                   ptl-put-/get-/atomic-latency and ptl-put-bandwidth run the
                                   Portals library between two ranks over NAME (one operation and
                                   its ack or reply per sample: median_us is the whole operation);
                                   put-/get-/acc-/fetch-op-/cas-latency, put-bw and get-bw are
                                   OSU's one-sided benchmarks on the API's windows (lock once,
                                   then one operation and a flush per sample, or a window of
                                   operations and a flush);
                                   latency, bw, bibw and mbw-mr are OSU's benchmarks on the
                                   application API between two ranks over NAME, with segment and
                                   array buffers, beside engine-latency / engine-bandwidth;
                                   bw, bibw and mbw-mr add the ucx driver's bandwidth among the
                                   references (set FERRY_UCX_TLS=sm for UCX's shared memory)
                                   passive: Portals operations on a rank that makes no
                                   Portals call (it computes), served by the library's
                                   passive progress, each after 10 ms of quiet: put+ack,
                                   fetch-add and get over shm and tcp (two ranks), put,
                                   atomic and get to itself over self, watched for in memory,
                                   and over shm and tcp the first put (which connects) after
                                   100 ms (default --driver self,shm,tcp, 200 iterations)
              --ranks LIST         collectives: the numbers of ranks (default 2,4), one job each over
                                   --driver (shm: all on this node); every line names the
                                   algorithm, and the same operation built naively from
                                   point-to-point (impl naive) is measured beside it, interleaved;
                                   agree and shrink (ULFM's fault-tolerant agreement and shrink,
                                   nobody failing) have beside them the same result without fault
                                   tolerance: an allreduce of one int, and a dup; allreduce-init
                                   (MPI-4's persistent allreduce: a start and a wait) has the
                                   blocking allreduce beside it
                                   partitioned: two ranks; 16 partitions readied by --threads
                                   threads beside one send of the same bytes (default --sizes
                                   4m), and how long before the last pready the first partition
                                   arrived
                                   overlap: two ranks (over a network driver, each on a node of its
                                   own); a receive of the size (default 4m) posted, a computation
                                   as long as the transfer alone, then the wait: overlap_pct is
                                   the share of the transfer hidden behind the computation, for
                                   caller progress, thread progress and agent mode (FERRY_AGENT=on;
                                   default --driver tcp)
              --sizes LIST         message sizes, e.g. 0,8,64,4k,1m
              --iterations N       round trips (latency) or messages (bandwidth) per size;
                                   a size moves at most 2 GiB, so large sizes run fewer
              --warmup N           untimed iterations per size, lasting at least 0.5 s and until
                                   the JIT compiled nothing for 0.25 s (at most 5 s)
                                   (default a tenth of the iterations; 0: no warm-up)
              --window N           sends in flight per bandwidth sample (default 16)
              --threads N          partitioned: threads readying the partitions (default 4)
              --posted N           API benchmarks: each rank first posts N receives on tags nobody
                                   sends, so every match happens beside them (default 0)
              --format FORMAT      table, csv or json (one object per line)
              --no-references      skip the reference lines (ref-shm, ref-readv, ref-nio, ref-ucp)
              --mode bsend         latency: add a phase of buffered sends (bsend from an attached
                                   buffer, both ranks) beside the standard sends of segments
              --mode counted       passive: the target's entry counts the operations into a
                                   counting event (served by the node agent all the same)
              --buffers KIND       engine-bandwidth, overlap: send and receive from offheap memory,
                                   the engine's shared arena (engine.allocate, Ferry.allocate: the
                                   shm driver's, which the node agent maps too), or (engine-
                                   bandwidth) both (default both over shm, else offheap);
                                   bw, bibw: arena adds a phase of segments from Ferry.allocate;
                                   passive: arena puts the target's entry in memAlloc memory
                                   (published: a same-node peer, or in agent mode the target's
                                   node agent, serves the operations it can).
                                   Over a network driver arena needs the ranks on two nodes
                                   (FERRY_RANKS_PER_NODE=1)
              --peer-prefix CMD    driver-latency / driver-bandwidth: start the peer process (the
                                   driver's and ref-nio's) under CMD, e.g. 'bin/ferry-cluster exec vc2'
                                   to measure between two hosts of a virtual cluster
              --rounds N           run the whole command N times, every other round in reverse
                                   order, and print one line per kind: the median of the rounds'
                                   figures, with each round's median (round_medians_us); on a
                                   noisy machine, compare phases this way rather than once each""";

    private BenchCommand() {
    }

    /** Runs JMH in this JVM (it forks its own with this class path). */
    private static int jmh(List<String> args, PrintStream out, PrintStream err) {
        try {
            org.openjdk.jmh.runner.options.CommandLineOptions cli = new org.openjdk.jmh.runner.options.CommandLineOptions(args.toArray(String[]::new));
            org.openjdk.jmh.runner.Runner runner = new org.openjdk.jmh.runner.Runner(cli,
                    org.openjdk.jmh.runner.format.OutputFormatFactory.createFormatInstance(out,
                            cli.verbosity().orElse(org.openjdk.jmh.runner.options.VerboseMode.NORMAL)));
            if (cli.shouldList()) {
                runner.list();
            } else if (cli.shouldHelp()) {
                cli.showHelp();
            } else {
                runner.run();
            }
            return 0;
        } catch (org.openjdk.jmh.runner.options.CommandLineOptionException e) {
            err.println("ferry bench jmh: " + e.getMessage());
            return 2;
        } catch (org.openjdk.jmh.runner.RunnerException | java.io.IOException e) {
            Throwable root = e.getCause() != null ? e.getCause() : e;
            err.println("ferry bench jmh: " + (root.getMessage() != null ? root.getMessage() : root.toString()));
            return 1;
        }
    }

    /**
     * Adds to the driver's lines the driver settings that are set (e.g. {@code "settings":"FERRY_UCX_TLS=sm"}),
     * so that runs of one driver in different configurations tell themselves apart. Secrets are left out.
     */
    private static java.util.function.Consumer<Result> labelled(DiscoveredDriver d, java.util.function.Consumer<Result> out) {
        String set = d.driver().settings().stream()
                .filter(s -> !s.source().equals("default") && !s.name().contains("KEY"))
                .map(s -> s.name() + "=" + s.value())
                .collect(Collectors.joining(","));
        if (set.isEmpty()) {
            return out;
        }
        return r -> {
            if (!r.driver().equals(d.name())) {
                out.accept(r);
                return;
            }
            java.util.Map<String, Object> extra = new java.util.HashMap<>(r.extra());
            extra.put("settings", set);
            out.accept(new Result(r.benchmark(), r.driver(), r.size(), r.iterations(), r.medianUs(), r.p99Us(), r.mbPerS(), extra));
        };
    }

    /** Runs the command; returns the exit code (2 for bad input, 1 for a failed run). */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.println("ferry bench: which benchmark? " + String.join(", ", BenchOptions.KNOWN));
            return 2;
        }
        if (args.get(0).equals("--help") || args.get(0).equals("help")) {
            out.println(USAGE);
            return 0;
        }
        if (args.get(0).equals("jmh")) {
            return jmh(args.subList(1, args.size()), out, err);
        }
        if (args.get(0).equals("scale")) {
            return ScaleBench.run(args.subList(1, args.size()), out, err);
        }
        if (args.get(0).equals("report")) {
            return ReportCommand.run(args.subList(1, args.size()), out, err);
        }
        BenchOptions o;
        List<DiscoveredDriver> drivers = new java.util.ArrayList<>();
        try {
            o = BenchOptions.parse(args.get(0), args.subList(1, args.size()));
            DriverCatalog catalog = DriverCatalog.discover();
            String[] names = o.driver().split(",");
            if (o.engine() && names.length > 1) {
                throw new UsageException(o.benchmark() + " measures one driver at a time, not '" + o.driver() + "'");
            }
            for (String name : names) {
                DiscoveredDriver d = catalog.find(name.strip()).orElseThrow(() -> new UsageException("unknown driver '" + name.strip()
                        + "' (found: " + catalog.all().stream().map(DiscoveredDriver::name).collect(Collectors.joining(", ")) + ")"));
                if (!d.available()) {
                    throw new UsageException("driver '" + d.name() + "' is unavailable here: " + d.problem());
                }
                drivers.add(d);
            }
        } catch (UsageException e) {
            err.println("ferry bench: " + e.getMessage());
            return 2;
        }
        ResultPrinter printer = new ResultPrinter(out, o.format());
        Progress progress = Progress.forTerminal(err);
        try {
            if (o.rounds() == 1 && !o.collective()) {
                measure(drivers, o, false, progress, printer::print, err);
            } else {
                Rounds rounds = new Rounds();
                for (int round = 0; round < o.rounds(); round++) {
                    // every other round runs its phases in reverse, so that no phase always comes first
                    measure(drivers, o, round % 2 == 1, progress, rounds::add, err);
                }
                progress.clear();
                rounds.merged().forEach(printer::print);
            }
            return 0;
        } catch (Exception e) {
            progress.clear();
            err.println("ferry bench: " + o.benchmark() + " failed: " + e);
            return 1;
        } finally {
            progress.clear();
        }
    }

    /** One round: each driver's phases, then the references (the other way round when {@code reversed}). */
    private static void measure(List<DiscoveredDriver> drivers, BenchOptions o, boolean reversed, Progress progress,
                                java.util.function.Consumer<Result> sink, PrintStream err) throws Exception {
        if (reversed) {
            references(o, progress, sink, err);
        }
        List<DiscoveredDriver> order = reversed ? drivers.reversed() : drivers;
        for (DiscoveredDriver d : order) {
            // a driver's packet limit binds its own benchmarks; the API's messages are cut into packets by the engine
            List<Long> sizes = o.api() ? o.sizes() : DriverBench.feasible(d, o.sizes(), note -> err.println("ferry bench: " + note));
            java.util.function.Consumer<Result> print = labelled(d, sink);
            if (o.passive()) {
                PassiveBench.run(d, o, progress, print);
            } else if (o.partitioned()) {
                progress.update(o.benchmark() + " " + d.name(), 0, 1);
                EngineBench.ranks(2, d, o, PartitionedBenchRank.class, List.of(o.benchmark(), "-"), print);
            } else if (o.overlap()) {
                // over a network driver the two ranks are on nodes of their own (FERRY_RANKS_PER_NODE=1),
                // so that agent mode goes through two agents and their link
                boolean remote = d.properties().capabilities().transport() == dev.ferry.spi.Transport.REMOTE;
                List<String[]> impls = new java.util.ArrayList<>(List.of(new String[] {"caller", "caller", "off"}, new String[] {"thread", "thread", "off"}));
                if (remote) {
                    impls.add(new String[] {"agent", "caller", "on"});
                    impls.add(new String[] {"agent-thread", "thread", "on"});
                }
                for (int i = 0; i < impls.size(); i++) {
                    String[] m = impls.get(reversed ? impls.size() - 1 - i : i);
                    progress.update(o.benchmark() + " " + d.name() + " " + m[0], i, impls.size());
                    java.util.Map<String, String> env = new java.util.HashMap<>(java.util.Map.of("FERRY_PROGRESS", m[1], "FERRY_AGENT", m[2]));
                    if (remote) {
                        env.put("FERRY_RANKS_PER_NODE", "1");
                        if (o.buffers().equals("arena")) {
                            env.put("FERRY_DRIVERS", "shm," + d.name()); // the arena is shm's: each rank has one, its peer on another node
                        }
                    }
                    EngineBench.ranks(2, d, o, OverlapBenchRank.class, List.of(o.benchmark(), m[0]), env, print);
                }
            } else if (o.collective()) {
                CollBench.run(d, o, reversed, progress, print);
            } else if (o.api()) {
                ApiBench.run(d, o, sizes, reversed, progress, print);
            } else if (o.windows()) {
                WindowBench.run(d, o, sizes, progress, print);
            } else if (o.portals()) {
                PortalsBench.run(d, o, sizes, progress, print);
            } else if (o.engine()) {
                EngineBench.run(d, o, sizes, reversed, progress, print);
            } else if (o.latency()) {
                DriverBench.latency(d, o, sizes, progress, print);
            } else {
                DriverBench.bandwidth(d, o, sizes, progress, print);
            }
        }
        if (!reversed) {
            references(o, progress, sink, err);
        }
    }

    /** The reference lines (ref-shm, ref-readv, ref-nio; ref-ucp for driver-latency with ucx), unless --no-references. */
    private static void references(BenchOptions o, Progress progress, java.util.function.Consumer<Result> sink, PrintStream err)
            throws Exception {
        if (!o.references() || o.collective() || o.passive() || o.partitioned() || o.overlap()) {
            return; // a collective's reference is its naive form, and partitioned's one send, measured in the same job; passive has none
        }
        BenchOptions ref = o.as(o.latency() ? BenchOptions.LATENCY : BenchOptions.BANDWIDTH);
        if (!o.peerPrefix().isEmpty()) { // the peer on another host: only the network's reference applies
            RefNio.run(ref, ref.sizes(), progress, sink);
            return;
        }
        if (o.latency()) {
            RefShm.latency(ref, progress, sink);
        } else {
            RefShm.bandwidth(ref, ref.sizes(), progress, sink);
            try {
                RefReadv.bandwidth(ref, ref.sizes(), progress, sink);
            } catch (IllegalStateException e) {
                err.println("ferry bench: no ref-readv line: " + e.getMessage());
            }
        }
        RefNio.run(ref, ref.sizes(), progress, sink);
        if (o.api() && !o.latency()) {
            // the goal names UCX between two processes of this machine, in the same run (FERRY_UCX_TLS=sm: its cma path)
            java.util.Optional<DiscoveredDriver> ucx = DriverCatalog.discover().find("ucx");
            if (ucx.isPresent() && ucx.get().available()) {
                List<Long> sizes = DriverBench.feasible(ucx.get(), ref.sizes(), note -> err.println("ferry bench: " + note));
                DriverBench.bandwidth(ucx.get(), ref, sizes, progress, labelled(ucx.get(), sink));
            } else {
                err.println("ferry bench: no ucx line: " + ucx.map(DiscoveredDriver::problem).orElse("no ucx driver on the class path"));
            }
        }
        if (o.latency() && !o.engine() && java.util.Arrays.stream(o.driver().split(",")).anyMatch(n -> n.strip().equals("ucx"))) {
            try {
                RefUcp.latency(ref, ref.sizes(), progress, sink);
            } catch (IllegalStateException e) {
                err.println("ferry bench: no ref-ucp line: " + e.getMessage());
            }
        }
    }
}
