package dev.ferry.portals;

import dev.ferry.spi.Setting;
import dev.ferry.spi.Settings;

import java.util.List;

/**
 * The library's settings, read once when a library starts from its configuration's
 * {@link Settings} (by default the environment: {@code FERRY_X}, or {@code ferry.x} as a system
 * property).
 *
 * <pre>{@code
 * String v = Settings.fromEnvironment().value(PortalsSettings.DIRECT);   // "on" unless set
 * }</pre>
 */
public final class PortalsSettings {
    public static final Setting DIRECT = new Setting("FERRY_PORTALS_DIRECT", "on",
            "on: operations on a same-node peer's entries whose memory is from memAlloc, and which need nothing of the peer"
                    + " (no target events or counts, persistent), are done directly on its shared memory; off: always by message",
            Setting.Type.SWITCH, "library (Portals)");

    public static final Setting PROGRESS = new Setting("FERRY_PORTALS_PROGRESS", "auto",
            "auto: besides the calls that wait, a thread serves peers (puts, gets, atomics aimed here) while the program makes"
                    + " no Portals call; caller: peers are served only inside Portals calls (with FERRY_PROGRESS=thread the engine's thread serves)",
            Setting.Type.CHOICE, "library (Portals)");

    private PortalsSettings() {
    }

    public static List<Setting> all() {
        return List.of(DIRECT, PROGRESS);
    }

    /** Whether a thread serves peers while the program makes no call (FERRY_PORTALS_PROGRESS=auto). */
    static boolean passiveProgress(Settings s) {
        String v = s.value(PROGRESS);
        return switch (v == null ? "auto" : v.strip().toLowerCase()) {
            case "auto" -> true;
            case "caller" -> false;
            default -> throw new PtlException(ReturnCode.ARG_INVALID, PROGRESS.name() + " must be auto or caller, not '" + v + "'");
        };
    }

    static boolean direct(Settings s) {
        String v = s.value(DIRECT);
        return switch (v == null ? "on" : v.strip().toLowerCase()) {
            case "on", "1", "true" -> true;
            case "off", "0", "false" -> false;
            default -> throw new PtlException(ReturnCode.ARG_INVALID, DIRECT.name() + " must be on or off, not '" + v + "'");
        };
    }
}
