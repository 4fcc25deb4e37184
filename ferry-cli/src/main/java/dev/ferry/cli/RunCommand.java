package dev.ferry.cli;

import dev.ferry.launch.hosts.HostJob;
import dev.ferry.launch.hosts.HostList;
import dev.ferry.launch.hosts.Placement;
import dev.ferry.launch.run.Job;
import dev.ferry.launch.run.JobSpec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.ferry.cli.OptionValues.number;
import static dev.ferry.cli.OptionValues.value;

/**
 * {@code ferry run -n N [options] [--] (MAIN-CLASS [args] | -jar JAR [args] | --example NAME [args])}.
 */
final class RunCommand {
    static final String USAGE = """
            usage: ferry run -n N [options] [--] (MAIN-CLASS [args] | -jar JAR [args] | --example NAME [args] | info)
              -n, --np N            number of ranks (with hosts: their slots, when not given)
              -H, --hosts, --host H[:S],...
                                    run on these hosts, S ranks each by slot (1 when not given); a host
                                    other than this one is reached over ssh (FERRY_SSH names another agent)
              --hostfile, --machinefile, -f FILE
                                    the hosts, one per line: 'NAME slots=S' (Open MPI's and Hydra's form)
              --map-by slot|node    fill each host's slots in turn (default), or one rank per host in turn
              --launcher ssh|auto   start even this host's share over ssh (default auto: ssh for other hosts)
              --prefix DIR          Ferry's directory on the hosts (default: this one's paths; FERRY_HOME)
              --stdin RANK|all|none which ranks read this launcher's standard input (default 0)
              -cp, -classpath, --class-path CP
                                    class path of the program (Ferry's own is added)
              --drivers LIST        sets FERRY_DRIVERS for the ranks
              --ranks-per-node K    with hosts: K ranks on each host in turn; without: play several nodes on
                                    this machine, ranks 0..K-1 on the first, ... (FERRY_RANKS_PER_NODE)
              --env NAME=VALUE      sets an environment variable for the ranks
              --tag-output          prefix each output line with [RANK]
              --oversubscribe       start more than 32 ranks per core on this host (memory and the
                                    process limit still bound -n)
              --timeout SECONDS     end the job after this long (exit status 124)
              --grace SECONDS       time the other ranks get after one failed (default 3)
              --continue-on-failure a rank that dies does not end the job: the others go on (a program
                                    that survives failures, with revoke, agree and shrink); the job
                                    ends when they end, naming the ranks that died, with status 0
                                    when any rank ended well
              --stats               each rank prints, as it closes, its connections (open, opened, closed
                                    idle, evicted) and the bytes Ferry holds by kind (FERRY_STATS=on)
              --report-wireup       print when every rank is past the bootstrap exchange, and at the
                                    end the CPU time the ranks and the launcher took
              -D..., -X..., -ea, -J<opt>   JVM options for the ranks
              --debug               with a one-line error, the trace behind it (also FERRY_DEBUG=1)
              -h, --help            this text""";

    private RunCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        return run(args, InputStream.nullInputStream(), out, err);
    }

    /** Runs a job; {@code in} is what the ranks --stdin names read. */
    static int run(List<String> args, InputStream in, PrintStream out, PrintStream err) {
        int n = -1;
        List<HostList.Host> hosts = null;
        Placement.MapBy mapBy = Placement.MapBy.SLOT;
        int perNode = 0;
        String prefix = null;
        boolean sshAlways = false;
        String stdin = "0";
        List<String> jvm = new ArrayList<>();
        List<String> cp = new ArrayList<>();
        Map<String, String> env = new LinkedHashMap<>();
        boolean tag = false;
        boolean reportWireup = false;
        boolean oversubscribe = false;
        boolean debug = false;
        Duration timeout = null;
        Duration grace = Duration.ofSeconds(3);
        boolean continueOnFailure = false;
        Program program;
        try {
            int i = 0;
            while (i < args.size()) {
                String a = args.get(i);
                if (a.equals("--")) {
                    i++;
                    break;
                }
                if (a.equals("-jar") || a.equals("--example") || !a.startsWith("-")) {
                    break; // the program starts here
                }
                switch (a) {
                    case "-n", "--np" -> n = (int) number(args, ++i, a, 1, 100_000);
                    case "-cp", "--class-path", "-classpath" -> cp.add(value(args, ++i, a));
                    case "--drivers" -> env.put("FERRY_DRIVERS", value(args, ++i, a));
                    case "--ranks-per-node" -> perNode = (int) number(args, ++i, a, 1, 100_000);
                    case "--hosts", "-H", "--host" -> {
                        String h = value(args, ++i, a);
                        hosts = hostList(() -> HostList.parse(h));
                    }
                    case "--hostfile", "--machinefile", "-f" -> {
                        String file = value(args, ++i, a);
                        hosts = hostList(() -> {
                            try {
                                return HostList.read(Path.of(file));
                            } catch (IOException e) {
                                throw new IllegalArgumentException("cannot read the host file " + file + ": " + e.getMessage());
                            }
                        });
                    }
                    case "--map-by" -> {
                        String by = value(args, ++i, a);
                        mapBy = hostList(() -> Placement.MapBy.parse(by));
                    }
                    case "--launcher" -> {
                        String l = value(args, ++i, a);
                        if (!l.equals("ssh") && !l.equals("auto")) {
                            throw new Program.UsageError("--launcher takes ssh or auto, not '" + l + "'");
                        }
                        sshAlways = l.equals("ssh");
                    }
                    case "--prefix" -> prefix = value(args, ++i, a);
                    case "--stdin" -> stdin = value(args, ++i, a);
                    case "--env" -> {
                        String kv = value(args, ++i, a);
                        int eq = kv.indexOf('=');
                        if (eq < 1) {
                            throw new Program.UsageError("--env takes NAME=VALUE, not '" + kv + "'");
                        }
                        env.put(kv.substring(0, eq), kv.substring(eq + 1));
                    }
                    case "--tag-output" -> tag = true;
                    case "--oversubscribe" -> oversubscribe = true;
                    case "--debug" -> debug = true;
                    case "--report-wireup" -> reportWireup = true;
                    case "--timeout" -> timeout = Duration.ofSeconds(number(args, ++i, a, 1, 10_000_000));
                    case "--grace" -> grace = Duration.ofSeconds(number(args, ++i, a, 0, 3600));
                    case "--continue-on-failure" -> continueOnFailure = true;
                    case "--stats" -> env.put(dev.ferry.core.config.EngineSettings.STATS.name(), "on");
                    case "-h", "--help" -> {
                        out.println(USAGE);
                        return 0;
                    }
                    default -> {
                        if (a.startsWith("-J") && a.length() > 2) {
                            jvm.add(a.substring(2));
                        } else if (a.startsWith("-D") || a.startsWith("-X") || a.equals("-ea") || a.equals("-da")
                                || a.equals("-esa") || a.startsWith("-ea:") || a.startsWith("-da:")) {
                            jvm.add(a);
                        } else {
                            throw new Program.UsageError("unknown option '" + a + "' (see 'ferry run --help')");
                        }
                    }
                }
                i++;
            }
            if (n < 0 && hosts != null) {
                n = HostList.slots(hosts); // as mpirun: as many ranks as the hosts have slots
            }
            if (n < 0) {
                throw new Program.UsageError("the number of ranks is missing: -n N");
            }
            if (hosts == null && perNode > 0) {
                env.put(dev.ferry.launch.LaunchSettings.RANKS_PER_NODE.name(), String.valueOf(perNode));
            }
            if (hosts == null && (sshAlways || prefix != null)) {
                throw new Program.UsageError((sshAlways ? "--launcher ssh" : "--prefix") + " needs --hosts or --hostfile");
            }
            if (i < args.size() && args.get(i).equals("info")) { // ferry info inside the job
                List<String> a = new ArrayList<>(args.subList(0, i));
                a.addAll(List.of(Main.class.getName(), "info"));
                a.addAll(args.subList(i + 1, args.size()));
                args = a;
            }
            program = Program.parse(args, i, cp);
            Preflight.settings(env, jvm);
            if (hosts != null) {
                long named = hosts.stream().map(HostList.Host::name).distinct().count();
                Preflight.drivers(env, jvm, program, n > named, named > 1 && n > 1, false);
            } else {
                Preflight.drivers(env, jvm, program, n >= 2 && perNode != 1, perNode > 0 && n > perNode, true);
                Preflight.ranks(n, oversubscribe);
            }
        } catch (Program.UsageError e) {
            err.println("ferry run: " + e.getMessage());
            if ((debug || Program.debug()) && e.getCause() != null) {
                e.getCause().printStackTrace(err);
            }
            return 2;
        }
        List<String> javaArgs = new ArrayList<>();
        javaArgs.add("--enable-native-access=ALL-UNNAMED");
        javaArgs.addAll(jvm);
        javaArgs.add("-cp");
        javaArgs.add(program.fullClassPath());
        javaArgs.add(program.mainClass());
        javaArgs.addAll(program.args());
        JobSpec spec;
        try {
            spec = new JobSpec(n, javaArgs, env, tag, timeout, grace, stdinRank(stdin), continueOnFailure);
        } catch (IllegalArgumentException e) {
            err.println("ferry run: " + e.getMessage());
            return 2;
        }
        int ranks = n;
        boolean report = reportWireup;
        // on a terminal, a bar while the ranks wire up (from 2 s on: JVMs starting on a busy machine)
        dev.ferry.bench.Progress.Shown wiring = dev.ferry.bench.Progress.forTerminal(err).timed("ferry run: wiring up " + n + " ranks", null);
        java.util.function.Consumer<Duration> wireup = d -> {
            wiring.close();
            if (report) {
                err.println("ferry run: wire-up: " + ranks + " ranks past the bootstrap exchange "
                        + d.toMillis() + " ms after ferry run started");
            }
        };
        try {
            if (hosts != null) {
                return new HostJob(spec, hosts, mapBy, perNode, HostJob.Remote.fromEnvironment(prefix, sshAlways), out, err)
                        .onWireup(wireup).withInput(in).run();
            }
            int status = new Job(spec, out, err).onWireup(wireup).withInput(in).run();
            if (reportWireup) {
                JobCpu.report(ranks, err);
            }
            return status;
        } catch (IOException e) {
            err.println("ferry run: " + e.getMessage());
            return 1;
        } finally {
            wiring.close();
        }
    }

    private static <T> T hostList(java.util.function.Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new Program.UsageError(e.getMessage());
        }
    }

    private static int stdinRank(String s) {
        return switch (s) {
            case "all" -> JobSpec.STDIN_ALL;
            case "none" -> JobSpec.STDIN_NONE;
            default -> {
                try {
                    yield Integer.parseInt(s);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--stdin takes a rank, all or none, not '" + s + "'");
                }
            }
        };
    }
}
