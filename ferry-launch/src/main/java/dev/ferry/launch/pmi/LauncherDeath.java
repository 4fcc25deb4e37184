package dev.ferry.launch.pmi;

import dev.ferry.launch.LaunchSettings;

import dev.ferry.spi.Syscall;

import java.lang.foreign.Arena;
import java.util.Map;

/**
 * A rank of {@code ferry run} ends when its launcher dies, even by SIGKILL: the kernel sends it
 * SIGTERM then (Linux's {@code PR_SET_PDEATHSIG}, through FFM), and the JVM shuts down as on any
 * SIGTERM. The launcher names itself in {@code FERRY_LAUNCHER_PID}; a rank whose launcher died
 * before it could ask fails at once. (A process a rank starts inherits the variable; it asks for
 * the signal on its own parent's death, the rank's.)
 *
 * <pre>{@code
 * LauncherDeath.arm(System.getenv()); // in the rank's bootstrap, before it talks PMI
 * }</pre>
 */
public final class LauncherDeath {
    private static final int PR_SET_PDEATHSIG = 1;
    private static final int SIGTERM = 15;

    private LauncherDeath() {
    }

    /**
     * Asks for SIGTERM on the launcher's death when {@code env} names a launcher; does nothing
     * otherwise, or where the system has no prctl.
     *
     * @throws PmiException when the launcher is already gone
     */
    public static void arm(Map<String, String> env) {
        String v = env.get(LaunchSettings.LAUNCHER_PID.name());
        if (v == null || v.isBlank()) {
            return;
        }
        long launcher;
        try {
            launcher = Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new PmiException(LaunchSettings.LAUNCHER_PID.name() + " must be a process id, not '" + v + "'");
        }
        if (!Syscall.available()) {
            return; // not Linux: the launcher's own reaper is all there is
        }
        try (Arena arena = Arena.ofConfined()) {
            if (Syscall.call(Syscall.errnoCapture(arena), Syscall.number(Syscall.Call.PRCTL), PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0, 0) != 0) {
                System.getLogger(LauncherDeath.class.getName()).log(System.Logger.Level.WARNING,
                        "prctl(PR_SET_PDEATHSIG) failed: this rank will not notice its launcher''s death");
                return;
            }
        }
        long ppid = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        // Another parent: a process a rank started (it ends with that rank), or a rank that
        // asked too late, reparented after the launcher died.
        if (ppid != launcher && !ProcessHandle.of(launcher).map(ProcessHandle::isAlive).orElse(false)) {
            throw new PmiException("the launcher (pid " + launcher + ") is gone; this rank's parent is now pid " + ppid);
        }
    }
}
