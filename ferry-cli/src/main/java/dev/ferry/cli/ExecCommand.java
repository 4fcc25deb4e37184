package dev.ferry.cli;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ferry exec [-cp CP] (MAIN-CLASS | -jar JAR | --example NAME) [args]}: runs one rank in
 * this JVM and the current environment, for launchers that are not Ferry's
 * ({@code mpiexec.hydra -n 4 bin/ferry exec --example hello}, {@code srun --mpi=pmi2 ...}); the
 * rank finds its PMI connection in the environment they set.
 */
final class ExecCommand {
    private ExecCommand() {
    }

    static int run(List<String> args, PrintStream err) {
        List<String> cp = new ArrayList<>();
        int i = 0;
        if (i + 1 < args.size() && (args.get(i).equals("-cp") || args.get(i).equals("--class-path"))) {
            cp.add(args.get(i + 1));
            i += 2;
        }
        if (i < args.size() && args.get(i).equals("--")) {
            i++;
        }
        Program program;
        try {
            program = Program.parse(args, i, cp);
        } catch (Program.UsageError e) {
            err.println("ferry exec: " + e.getMessage());
            return 2;
        }
        try {
            dev.ferry.core.config.EngineSettings.validate(dev.ferry.spi.Settings.fromEnvironment());
        } catch (IllegalArgumentException e) {
            // every rank finds the same; rank 0 says it, once (with no launcher's rank, this one)
            String rank = rankOf(System.getenv());
            if (rank.isEmpty() || rank.equals("rank 0: ")) {
                err.println("ferry exec: " + e.getMessage());
                if (Program.debug()) {
                    e.printStackTrace(err);
                }
            }
            return 2;
        }
        try {
            URLClassLoader loader = new URLClassLoader(program.urls(), ExecCommand.class.getClassLoader());
            Thread.currentThread().setContextClassLoader(loader);
            Method main = Class.forName(program.mainClass(), true, loader).getMethod("main", String[].class);
            main.invoke(null, (Object) program.args().toArray(String[]::new));
            return 0;
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            err.println("ferry exec: " + rankOf(System.getenv()) + program.mainClass() + " failed: " + cause);
            if (!(cause instanceof dev.ferry.launch.pmi.PmiException)) {
                cause.printStackTrace(err); // a launcher's fault is said in its one line
            }
            return 1;
        } catch (ReflectiveOperationException e) {
            err.println("ferry exec: cannot start " + program.mainClass() + ": " + e);
            return 2;
        }
    }

    /** "rank R: " as the launcher numbers this process (PMI, PMIx, Slurm, Open MPI), or "" when none does. */
    static String rankOf(java.util.Map<String, String> env) {
        for (String key : new String[] {"PMI_RANK", "PMIX_RANK", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_ID"}) {
            String v = env.get(key);
            if (v != null && v.strip().matches("\\d+")) {
                return "rank " + v.strip() + ": ";
            }
        }
        return "";
    }
}
