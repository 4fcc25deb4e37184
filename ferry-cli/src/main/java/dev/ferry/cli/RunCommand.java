package dev.ferry.cli;

import dev.ferry.launch.run.Job;
import dev.ferry.launch.run.JobSpec;

import java.io.IOException;
import java.io.PrintStream;
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
              -n, --np N            number of ranks
              -cp, --class-path CP  class path of the program (Ferry's own is added)
              --drivers LIST        sets FERRY_DRIVERS for the ranks
              --ranks-per-node K    play several nodes on this machine: ranks 0..K-1 on the first, ...
                                    (sets FERRY_RANKS_PER_NODE; same-node pairs use shm, others tcp)
              --env NAME=VALUE      sets an environment variable for the ranks
              --tag-output          prefix each output line with [RANK]
              --timeout SECONDS     end the job after this long (exit status 124)
              --grace SECONDS       time the other ranks get after one failed (default 3)
              --report-wireup       print when every rank is past the bootstrap exchange
              -D..., -X..., -ea, -J<opt>   JVM options for the ranks""";

    private RunCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        int n = -1;
        List<String> jvm = new ArrayList<>();
        List<String> cp = new ArrayList<>();
        Map<String, String> env = new LinkedHashMap<>();
        boolean tag = false;
        boolean reportWireup = false;
        Duration timeout = null;
        Duration grace = Duration.ofSeconds(3);
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
                    case "--ranks-per-node" -> env.put(dev.ferry.launch.LaunchSettings.RANKS_PER_NODE.name(), String.valueOf(number(args, ++i, a, 1, 100_000)));
                    case "--env" -> {
                        String kv = value(args, ++i, a);
                        int eq = kv.indexOf('=');
                        if (eq < 1) {
                            throw new Program.UsageError("--env takes NAME=VALUE, not '" + kv + "'");
                        }
                        env.put(kv.substring(0, eq), kv.substring(eq + 1));
                    }
                    case "--tag-output" -> tag = true;
                    case "--report-wireup" -> reportWireup = true;
                    case "--timeout" -> timeout = Duration.ofSeconds(number(args, ++i, a, 1, 10_000_000));
                    case "--grace" -> grace = Duration.ofSeconds(number(args, ++i, a, 0, 3600));
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
            if (n < 0) {
                throw new Program.UsageError("the number of ranks is missing: -n N");
            }
            if (i < args.size() && args.get(i).equals("info")) { // ferry info inside the job
                List<String> a = new ArrayList<>(args.subList(0, i));
                a.addAll(List.of(Main.class.getName(), "info"));
                a.addAll(args.subList(i + 1, args.size()));
                args = a;
            }
            program = Program.parse(args, i, cp);
            checkDrivers(env, program);
        } catch (Program.UsageError e) {
            err.println("ferry run: " + e.getMessage());
            return 2;
        }
        List<String> javaArgs = new ArrayList<>();
        javaArgs.add("--enable-native-access=ALL-UNNAMED");
        javaArgs.addAll(jvm);
        javaArgs.add("-cp");
        javaArgs.add(program.fullClassPath());
        javaArgs.add(program.mainClass());
        javaArgs.addAll(program.args());
        Job job = new Job(new JobSpec(n, javaArgs, env, tag, timeout, grace), out, err);
        if (reportWireup) {
            int ranks = n;
            job.onWireup(d -> err.println("ferry run: wire-up: " + ranks + " ranks past the bootstrap exchange "
                    + d.toMillis() + " ms after ferry run started"));
        }
        try {
            return job.run();
        } catch (IOException e) {
            err.println("ferry run: " + e.getMessage());
            return 1;
        }
    }

    /**
     * FERRY_DRIVERS (--drivers, --env), checked once here against the drivers the ranks will find
     * (Ferry's, the program's class path, FERRY_DRIVER_PATH), rather than by every rank with a
     * stack trace.
     */
    private static void checkDrivers(Map<String, String> env, Program program) {
        String drivers = env.getOrDefault("FERRY_DRIVERS", System.getenv("FERRY_DRIVERS"));
        if (drivers == null) {
            return;
        }
        String pluginPath = env.getOrDefault("FERRY_DRIVER_PATH", dev.ferry.core.config.FerrySettings.DRIVER_PATH.value());
        try (java.net.URLClassLoader loader = new java.net.URLClassLoader(program.urls(), RunCommand.class.getClassLoader())) {
            dev.ferry.core.driver.DriverSelection.parse(drivers)
                    .select(dev.ferry.core.driver.DriverCatalog.discover(loader, dev.ferry.core.driver.DriverCatalog.pluginDirectories(pluginPath)).all());
        } catch (IllegalArgumentException e) {
            throw new Program.UsageError(e.getMessage());
        } catch (IOException e) {
            throw new Program.UsageError("cannot read the class path: " + e.getMessage());
        }
    }
}
