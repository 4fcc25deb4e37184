package dev.ferry.launch.pmi;

import dev.ferry.launch.LaunchSettings;

import java.util.Locale;
import java.util.Map;

import static dev.ferry.launch.pmi.PmiWire.parseV1;
import static dev.ferry.launch.pmi.PmiWire.v1;

/**
 * Chooses the bootstrap from the environment: PMI_FD (an inherited descriptor, Hydra and Slurm)
 * or PMI_PORT (a socket, ferry run and Hydra's port mode), else PMIx when PMIX_NAMESPACE or
 * PMIX_RANK name a PMIx server (srun --mpi=pmix, Open MPI's mpirun, prterun), else a job of one,
 * unless a launcher's variables say this is one process of several (an error then). The protocol is
 * negotiated: the client asks for PMI-2 and takes PMI-1 when the launcher declines, or follows
 * FERRY_PMI=1|2. In port mode with PMI_ID, PMI-1 with its initack is used, as MPICH does.
 *
 * <pre>{@code
 * Bootstrap boot = Bootstraps.fromEnvironment();
 * }</pre>
 */
public final class Bootstraps {
    private Bootstraps() {
    }

    public static Bootstrap fromEnvironment() {
        return from(System.getenv());
    }

    public static Bootstrap from(Map<String, String> env) {
        String fd = env.get("PMI_FD");
        String port = env.get("PMI_PORT");
        if (fd == null && port == null) {
            if (PmixBootstrap.present(env)) {
                try {
                    return new PmixBootstrap();
                } catch (PmiException e) {
                    throw new PmiException("started under PMIx (PMIX_NAMESPACE=" + env.get("PMIX_NAMESPACE") + ", PMIX_RANK="
                            + env.get("PMIX_RANK") + "): " + e.getMessage());
                }
            }
            String launcher = launcherWithoutPmi(env);
            if (launcher != null) {
                throw new PmiException(launcher);
            }
            return new SingletonBootstrap();
        }
        LauncherDeath.arm(env);
        String mode = env.getOrDefault(LaunchSettings.PMI.name(), LaunchSettings.PMI.defaultValue()).strip().toLowerCase(Locale.ROOT);
        if (!mode.equals("auto") && !mode.equals("1") && !mode.equals("2")) {
            throw new PmiException(LaunchSettings.PMI.name() + " must be auto, 1 or 2, not '" + mode + "'");
        }
        int pmiId = intEnv(env, "PMI_ID");
        int rank = intEnv(env, "PMI_RANK");
        int size = intEnv(env, "PMI_SIZE");
        PmiTransport t = fd != null ? new FdTransport(parseFd(fd)) : new SocketTransport(port);
        try {
            return open(t, mode, fd == null ? pmiId : -1, rank >= 0 ? rank : pmiId, size, env.get("PMI_JOBID"));
        } catch (RuntimeException e) {
            t.close();
            throw e;
        }
    }

    /** Runs the protocol choice on an open transport; visible for the recorded-conversation tests. */
    public static Bootstrap open(PmiTransport t, String mode, int portModeId, int rank, int size) {
        return open(t, mode, portModeId, rank, size, null);
    }

    /** {@link #open(PmiTransport, String, int, int, int)} with the launcher's PMI_JOBID (Slurm sets it), or null. */
    public static Bootstrap open(PmiTransport t, String mode, int portModeId, int rank, int size, String pmiJobId) {
        if (mode.equals("1") || (mode.equals("auto") && portModeId >= 0)) {
            return new Pmi1Client(t, portModeId, rank, size, false);
        }
        t.writeAscii(v1("init", "pmi_version", "2", "pmi_subversion", "0"));
        PmiWire.Message r = parseV1(t.readLine());
        if (!r.cmd().equals("response_to_init")) {
            throw new PmiException("PMI: expected cmd=response_to_init, got cmd=" + r.cmd());
        }
        if (r.rc() == 0 && r.getInt("pmi_version", 1) == 2) {
            return new Pmi2Client(t, pmiJobId, rank);
        }
        if (mode.equals("2")) {
            throw new PmiException("FERRY_PMI=2, but the launcher answered " + r.attrs());
        }
        // declined: PMI-1, initialised by that same exchange when the server said version 1, else again
        boolean initialized = r.rc() == 0 && r.getInt("pmi_version", 1) == 1;
        return new Pmi1Client(t, -1, rank, size, initialized);
    }

    /**
     * What says, when there is no PMI_FD or PMI_PORT, that a launcher started this process as one
     * of several (so that a job of one would be wrong), as one line; null when nothing does.
     */
    static String launcherWithoutPmi(Map<String, String> env) {
        String how = " Ferry speaks PMI-1, PMI-2 and PMIx: start it with `srun --mpi=pmi2` or `--mpi=pmix`, Hydra's `mpiexec`,"
                + " Open MPI's `mpirun` or `ferry run`.";
        if (intEnv(env, "OMPI_COMM_WORLD_SIZE") > 1) {
            return "started by Open MPI's launcher as one of " + env.get("OMPI_COMM_WORLD_SIZE")
                    + " processes (OMPI_COMM_WORLD_SIZE) without a PMIx server (no PMIX_NAMESPACE); it will not run as a job of one." + how;
        }
        if (env.containsKey("SLURM_STEP_ID") && intEnv(env, "SLURM_STEP_NUM_TASKS") > 1) {
            return "started by srun as one of " + env.get("SLURM_STEP_NUM_TASKS")
                    + " tasks (SLURM_STEP_NUM_TASKS) without a PMI (no PMI_FD: srun's --mpi is none); it will not run as a job of one." + how;
        }
        if (intEnv(env, "PMI_SIZE") > 1) {
            return "PMI_SIZE=" + env.get("PMI_SIZE") + " says this is one of several processes, but neither PMI_FD nor PMI_PORT is set;"
                    + " it will not run as a job of one." + how;
        }
        return null;
    }

    private static int intEnv(Map<String, String> env, String key) {
        String v = env.get(key);
        if (v == null || v.isBlank()) {
            return -1;
        }
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new PmiException(key + " must be a whole number, not '" + v + "'");
        }
    }

    private static int parseFd(String v) {
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new PmiException("PMI_FD must be a file descriptor number, not '" + v + "'");
        }
    }
}
