package dev.ferry.cli;

import dev.ferry.bench.BenchCommand;

import java.io.PrintStream;
import java.util.List;

/**
 * The {@code ferry} command. Started by {@code bin/ferry}, which finds a JDK 25 and builds what
 * is missing.
 *
 * <pre>
 *   ferry info [--format text|json]
 *   ferry bench driver-latency|driver-bandwidth [--driver NAME] [--sizes LIST] [--format json] ...
 * </pre>
 */
public final class Main {
    static final String USAGE = """
            usage: ferry <command> [arguments]
              run -n N [opts] PROGRAM       start a job of N ranks on this machine or on --hosts ('ferry run --help')
              demo                          a 4-rank job as 2 nodes x 2 ranks: which pairs use which driver, how fast
              exec PROGRAM                  run one rank under another launcher (mpiexec.hydra, srun)
              agent --socket P --job-key K  the node agent in the foreground ('ferry agent --help')
              cache                         make this machine's ahead-of-time cache for ranks (ferry run makes it
                                              itself; once per node where only srun or mpiexec start ranks)
              classpath                     Ferry's class path, to compile and run programs with javac and java
                                              (the mpi package of Open MPI's Java bindings and mpiJava included)
              javac [javac args]            JDK 25's javac with Ferry's class path added (as mpijavac)
              soak [-n N] [--duration S] [--chaos]   random checksummed traffic over every driver; counts
                                            lost, duplicated, corrupted, reordered ('ferry soak --help')
              info [--format text|json]     drivers found, their capabilities and profile, FERRY_* settings
              bench driver-latency [opts]   one-way latency through a driver, with ref-shm and ref-nio
              bench driver-bandwidth [opts] bandwidth through a driver, with ref-shm and ref-nio
              bench engine-latency [opts]   latency, and bandwidth, through the engine between two ranks,
              bench engine-bandwidth [opts]   beside the driver's own figures from the same run
              bench ptl-put-latency [opts]  the Portals library between two ranks; also ptl-get-latency,
                                              ptl-atomic-latency (fetch-add, compare-and-swap) and ptl-put-bandwidth
              bench passive [opts]          Portals operations served by a rank that makes no call (self, shm, tcp)
              bench put-latency [opts]      OSU's one-sided benchmarks on the API's windows between two ranks;
                                              also get-latency, acc-latency, fetch-op-latency, cas-latency,
                                              put-bw and get-bw (lock once, flush per operation)
              bench latency [opts]          OSU's benchmarks on the application API between two ranks;
                                              also bw, bibw, mbw-mr; beside the engine's figure
              bench allreduce [opts]        OSU's collective benchmarks on N ranks (--ranks 2,4); also
                                              barrier, bcast, reduce, allgather, alltoall; beside naive ones
              bench agree [opts]            ULFM's fault-tolerant agreement on N ranks; also shrink; beside an
                                              allreduce of one int and a dup
              bench allreduce-init [opts]   MPI-4's persistent allreduce (start and wait) beside the blocking one
              bench partitioned [opts]      16 partitions readied by 4 threads (--threads) beside one send
              bench overlap [opts]          a 4 MiB receive hidden behind computation: caller, thread, agent(-thread)
              bench scale [opts]            what a rank of a large job holds (--peers 100000) under a connection
                                              cap and idle close, and what a reconnect costs
              bench jmh [JMH options]       microbenchmarks of the hot paths, e.g. 'jmh SpiHotPath -prof gc'
              bench wireup [-n 4,16]        time from ferry run to every rank past the bootstrap exchange, and CPU
              help                          this text; 'ferry bench --help' for benchmark options""";

    private Main() {
    }

    public static void main(String[] args) {
        // One line per log record: library code logs through System.Logger (java.util.logging here).
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", "ferry: %4$s: %5$s%6$s%n");
        }
        if (args.length > 0 && args[0].equals("proxy")) {
            dev.ferry.launch.hosts.Proxy.main(new String[0]); // owns the standard streams: a launcher's frames
            return;
        }
        System.exit(run(List.of(args), System.in, System.out, System.err));
    }

    /**
     * {@code ferry demo}: the engine's mixed job on this machine. Four ranks play two nodes of two
     * ranks; same-node pairs go through shm, the others through tcp on loopback, all at once.
     */
    static int demo(List<String> args, PrintStream out, PrintStream err) {
        if (!args.isEmpty()) {
            err.println("ferry demo: takes no arguments (it runs: ferry run -n 4 --ranks-per-node 2 --example demo)");
            return 2;
        }
        List<String> run = new java.util.ArrayList<>(List.of("-n", "4", "--ranks-per-node", "2", "--timeout", "300"));
        if (System.getenv("FERRY_TCP_INTERFACES") == null) {
            run.addAll(List.of("--env", "FERRY_TCP_INTERFACES=lo")); // the two "nodes" are this machine
        }
        run.addAll(List.of("--example", "demo"));
        return RunCommand.run(run, out, err);
    }

    /**
     * {@code ferry classpath}: the class path programs compile and run with, as {@code mpijavac}
     * gives it for Open MPI's Java bindings: {@code javac -cp "$(ferry classpath)" Hello.java}.
     */
    static int classpath(List<String> args, PrintStream out, PrintStream err) {
        if (!args.isEmpty()) {
            err.println("ferry classpath: takes no arguments (it prints the class path: javac -cp \"$(bin/ferry classpath)\" Prog.java)");
            return 2;
        }
        out.println(applicationClassPath());
        return 0;
    }

    /**
     * What an application needs of Ferry at compile and run time: the API, the mpi package, the
     * engine below them and the drivers, without the tools (the CLI, benchmarks, examples, JMH).
     * {@code bin/ferry} passes it as {@code ferry.app.classpath}; run otherwise, the whole class path.
     */
    static String applicationClassPath() {
        String app = System.getProperty("ferry.app.classpath");
        return app != null && !app.isBlank() ? app : System.getProperty("java.class.path");
    }

    /**
     * {@code ferry cache}: makes this machine's ahead-of-time cache for ranks with Ferry's class
     * path, the one {@code ferry exec} ranks and the proxies of {@code ferry run --hosts} map, when
     * there is none. {@code ferry run} makes it after its first successful job; where only other
     * launchers start ranks, run this once per node ({@code srun -N 8 --ntasks-per-node=1 bin/ferry cache}).
     */
    static int cache(List<String> args, PrintStream out, PrintStream err) {
        if (!args.isEmpty()) {
            err.println("ferry cache: takes no arguments (it makes this machine's ahead-of-time cache for Ferry's class path)");
            return 2;
        }
        out.println("ferry cache: " + dev.ferry.launch.run.AotCache.make(System.getProperty("java.class.path")));
        return 0;
    }

    /**
     * {@code ferry javac}: this JDK's compiler with Ferry's class path added to the program's (as
     * Open MPI's {@code mpijavac} does): {@code ferry javac -d classes Hello.java}.
     */
    static int javac(List<String> args, PrintStream out, PrintStream err) {
        javax.tools.JavaCompiler javac = javax.tools.ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            err.println("ferry javac: this Java (" + System.getProperty("java.home") + ") has no compiler; use a JDK 25");
            return 2;
        }
        List<String> all = new java.util.ArrayList<>(args);
        String ferry = applicationClassPath();
        int cp = -1;
        for (int i = 0; i + 1 < all.size(); i++) {
            if (List.of("-cp", "-classpath", "--class-path").contains(all.get(i))) {
                cp = i + 1;
            }
        }
        if (cp >= 0) {
            all.set(cp, all.get(cp) + java.io.File.pathSeparator + ferry);
        } else {
            all.addAll(0, List.of("-cp", ferry));
        }
        return javac.run(null, out, err, all.toArray(new String[0]));
    }

    /** Runs one command with no standard input; returns its exit code (2 for bad input). */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        return run(args, java.io.InputStream.nullInputStream(), out, err);
    }

    /** Runs one command; returns its exit code (2 for bad input). */
    static int run(List<String> args, java.io.InputStream in, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.println(USAGE);
            return 2;
        }
        List<String> rest = args.subList(1, args.size());
        return switch (args.get(0)) {
            case "info" -> InfoCommand.run(rest, out, err);
            case "run" -> RunCommand.run(rest, in, out, err);
            case "demo" -> demo(rest, out, err);
            case "soak" -> SoakCommand.run(rest, out, err);
            case "exec" -> ExecCommand.run(rest, err);
            case "agent" -> AgentCommand.run(rest, out, err);
            case "classpath" -> classpath(rest, out, err);
            case "cache" -> cache(rest, out, err);
            case "javac" -> javac(rest, out, err);
            case "bench" -> !rest.isEmpty() && rest.get(0).equals("wireup")
                    ? WireupBench.run(rest.subList(1, rest.size()), out, err)
                    : BenchCommand.run(rest, out, err);
            case "help", "--help", "-h" -> {
                out.println(USAGE);
                yield 0;
            }
            default -> {
                err.println("ferry: unknown command '" + args.get(0) + "' (try 'ferry help')");
                yield 2;
            }
        };
    }
}
