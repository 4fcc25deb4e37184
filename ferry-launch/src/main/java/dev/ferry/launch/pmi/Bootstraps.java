package dev.ferry.launch.pmi;

import java.util.Locale;
import java.util.Map;

import static dev.ferry.launch.pmi.PmiWire.parseV1;
import static dev.ferry.launch.pmi.PmiWire.v1;

/**
 * Chooses the bootstrap from the environment: PMI_FD (an inherited descriptor, Hydra and Slurm)
 * or PMI_PORT (a socket, ferry run and Hydra's port mode), else a job of one. The protocol is
 * negotiated: the client asks for PMI-2 and takes PMI-1 when the launcher declines, or follows
 * FERRY_PMI=1|2. In port mode with PMI_ID, PMI-1 with its initack is used, as MPICH does.
 *
 * <pre>{@code
 * Bootstrap boot = Bootstraps.fromEnvironment();
 * }</pre>
 */
public final class Bootstraps {
    /** FERRY_PMI: auto (default), 1 or 2. */
    public static final String PMI_SETTING = "FERRY_PMI";

    private Bootstraps() {
    }

    public static Bootstrap fromEnvironment() {
        return from(System.getenv());
    }

    public static Bootstrap from(Map<String, String> env) {
        String fd = env.get("PMI_FD");
        String port = env.get("PMI_PORT");
        if (fd == null && port == null) {
            return new SingletonBootstrap();
        }
        LauncherDeath.arm(env);
        String mode = env.getOrDefault(PMI_SETTING, "auto").strip().toLowerCase(Locale.ROOT);
        if (!mode.equals("auto") && !mode.equals("1") && !mode.equals("2")) {
            throw new PmiException(PMI_SETTING + " must be auto, 1 or 2, not '" + mode + "'");
        }
        int pmiId = intEnv(env, "PMI_ID");
        int rank = intEnv(env, "PMI_RANK");
        int size = intEnv(env, "PMI_SIZE");
        PmiTransport t = fd != null ? new FdTransport(parseFd(fd)) : new SocketTransport(port);
        try {
            return open(t, mode, fd == null ? pmiId : -1, rank >= 0 ? rank : pmiId, size);
        } catch (RuntimeException e) {
            t.close();
            throw e;
        }
    }

    /** Runs the protocol choice on an open transport; visible for the recorded-conversation tests. */
    public static Bootstrap open(PmiTransport t, String mode, int portModeId, int rank, int size) {
        if (mode.equals("1") || (mode.equals("auto") && portModeId >= 0)) {
            return new Pmi1Client(t, portModeId, rank, size, false);
        }
        t.writeAscii(v1("init", "pmi_version", "2", "pmi_subversion", "0"));
        PmiWire.Message r = parseV1(t.readLine());
        if (!r.cmd().equals("response_to_init")) {
            throw new PmiException("PMI: expected cmd=response_to_init, got cmd=" + r.cmd());
        }
        if (r.rc() == 0 && r.getInt("pmi_version", 1) == 2) {
            return new Pmi2Client(t, rank);
        }
        if (mode.equals("2")) {
            throw new PmiException("FERRY_PMI=2, but the launcher answered " + r.attrs());
        }
        // declined: PMI-1, initialised by that same exchange when the server said version 1, else again
        boolean initialized = r.rc() == 0 && r.getInt("pmi_version", 1) == 1;
        return new Pmi1Client(t, -1, rank, size, initialized);
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
