package dev.ferry.core.config;

import dev.ferry.core.wire.WireHeader;
import dev.ferry.spi.Setting;
import dev.ferry.spi.Settings;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine's settings, read once when an engine starts from its configuration's
 * {@link Settings} (by default the environment: {@code FERRY_X}, or {@code ferry.x} as a system
 * property).
 *
 * <pre>{@code
 * long limit = EngineSettings.eagerLimit(Settings.fromEnvironment());   // -1: each rail's own
 * }</pre>
 */
public final class EngineSettings {
    public static final Setting EAGER_LIMIT = new Setting("FERRY_EAGER_LIMIT", null,
            "largest message sent immediate (in the packet); larger ones by rendezvous; unset: each rail's buffer size",
            Setting.Type.BYTES, "engine");
    public static final Setting EAGER_CREDITS = new Setting("FERRY_EAGER_CREDITS", "262144",
            "bytes of unexpected immediate messages one peer may leave waiting at a receiver (flow control)",
            Setting.Type.BYTES, "engine");
    public static final Setting EAGER_POOL = new Setting("FERRY_EAGER_POOL", "off",
            "off (every peer may leave FERRY_EAGER_CREDITS unreceived), or bytes: what all peers together may leave; each starts with none and is granted up to FERRY_EAGER_CREDITS from the pool when it asks",
            Setting.Type.BYTES, "engine");
    public static final Setting MULTIRAIL = new Setting("FERRY_MULTIRAIL", "on",
            "on: split large messages across a gate's rails by bandwidth; off: one rail per gate",
            Setting.Type.SWITCH, "engine");
    public static final Setting MULTIRAIL_MIN = new Setting("FERRY_MULTIRAIL_MIN", "262144",
            "smallest rendezvous split across several rails",
            Setting.Type.BYTES, "engine");
    public static final Setting PROGRESS = new Setting("FERRY_PROGRESS", "caller",
            "caller: progress in calls that test or wait; thread: a background progress thread",
            Setting.Type.CHOICE, "engine");
    public static final Setting INFO = new Setting("FERRY_INFO", "0",
            "1: log the rails and protocols chosen for each kind of peer at init",
            Setting.Type.SWITCH, "engine");
    public static final Setting RNDV_PULL = new Setting("FERRY_RNDV_PULL", "on",
            "on: where the rail's driver offers pull (shm, ucx), a rendezvous' RTS carries the pull data and the target pulls at once, no CTS; off: always RTS, CTS, then the raw chunks",
            Setting.Type.SWITCH, "engine");
    public static final Setting RAILS = new Setting("FERRY_RAILS", null,
            "contexts per driver, e.g. tcp:2 (each context is one more rail to every peer it reaches); unset: one each",
            Setting.Type.LIST, "engine wire-up");

    public static final Setting SAME_PROCESS = new Setting("FERRY_SAME_PROCESS", "self",
            "self: ranks of one process (an in-process job) reach each other through the self driver; node: through the drivers"
                    + " of their node, as separate processes would (shm, or tcp with FERRY_RANKS_PER_NODE=1)",
            Setting.Type.CHOICE, "engine");
    public static final Setting IDLE_CLOSE = new Setting("FERRY_IDLE_CLOSE", "off",
            "close a connection unused this long, by agreement of both ends, reopening it on next use (e.g. 5ms, 2s, 1m; off: never)",
            Setting.Type.TEXT, "engine");
    public static final Setting MAX_CONNECTIONS = new Setting("FERRY_MAX_CONNECTIONS", "off",
            "connections per rank and driver beyond which the least recently used quiet one is closed as an idle one is (off: no cap)",
            Setting.Type.NUMBER, "engine");
    public static final Setting STATS = new Setting("FERRY_STATS", "off",
            "on: each rank logs its connections (open, opened, closed idle, evicted) and the bytes Ferry holds, by kind, when it closes (ferry run --stats)",
            Setting.Type.SWITCH, "engine");
    public static final Setting CONNECT = new Setting("FERRY_CONNECT", "lazy",
            "lazy: a connection is made on first use, and a peer's URL read then; eager: every rank starts connecting to every other during init (steadier first iterations)",
            Setting.Type.CHOICE, "engine");

    private EngineSettings() {
    }

    public static List<Setting> all() {
        return List.of(EAGER_LIMIT, EAGER_CREDITS, EAGER_POOL, MULTIRAIL, MULTIRAIL_MIN, PROGRESS, INFO, RAILS, RNDV_PULL, SAME_PROCESS,
                IDLE_CLOSE, MAX_CONNECTIONS, CONNECT, STATS);
    }

    /**
     * Reads every engine setting of {@code s} as the engine will, and checks them against each
     * other: a launcher calls it once before it starts ranks, so that a value not understood is one
     * line from it rather than a stack trace from every rank.
     *
     * @throws IllegalArgumentException naming the setting, its value and what it takes
     */
    public static void validate(Settings s) {
        check(s, eagerLimit(s), credits(s));
        multirailMin(s);
        multirail(s);
        rendezvousPull(s);
        progressThread(s);
        sameProcessBySelf(s);
        railCounts(s.value(RAILS));
        idleCloseNanos(s);
        maxConnections(s);
        eagerPool(s);
        connectEagerly(s);
        stats(s);
    }

    /** FERRY_EAGER_POOL in bytes, or 0 for off (a fixed FERRY_EAGER_CREDITS per peer). */
    public static long eagerPool(Settings s) {
        String v = s.value(EAGER_POOL);
        if (v == null || v.isBlank() || v.strip().equalsIgnoreCase("off")) {
            return 0;
        }
        return bytes(EAGER_POOL, v, 4096, 1L << 40);
    }

    /** FERRY_STATS=on. */
    public static boolean stats(Settings s) {
        return onOff(s, STATS);
    }

    /** FERRY_CONNECT=eager. */
    public static boolean connectEagerly(Settings s) {
        return either(s, CONNECT, "eager", "lazy");
    }

    /** FERRY_IDLE_CLOSE in nanoseconds; 0 when off. */
    public static long idleCloseNanos(Settings s) {
        String v = s.value(IDLE_CLOSE);
        return v == null || v.isBlank() ? 0 : duration(IDLE_CLOSE, v);
    }

    /** FERRY_MAX_CONNECTIONS; 0 when off. */
    public static int maxConnections(Settings s) {
        String v = s.value(MAX_CONNECTIONS);
        if (v == null || v.isBlank() || v.strip().equalsIgnoreCase("off")) {
            return 0;
        }
        try {
            int n = Integer.parseInt(v.strip());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(MAX_CONNECTIONS.name() + " must be a number of connections, at least 1, or off; not '" + v + "'");
    }

    /**
     * A duration such as {@code 500us}, {@code 5ms}, {@code 2s} or {@code 1m}, in nanoseconds
     * (at least a microsecond); {@code off} is 0.
     */
    public static long duration(Setting s, String v) {
        String t = v.strip().toLowerCase();
        if (t.equals("off")) {
            return 0;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,9})(us|ms|s|m)").matcher(t);
        if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
            throw new IllegalArgumentException(s.name() + " must be a duration like 5ms, 2s or 1m (units us, ms, s, m), or off; not '" + v + "'");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "us" -> n * 1_000L;
            case "ms" -> n * 1_000_000L;
            case "s" -> n * 1_000_000_000L;
            default -> n * 60_000_000_000L;
        };
    }

    /** The eager limit set by the user, or -1 for each rail's own. */
    public static long eagerLimit(Settings s) {
        String v = s.value(EAGER_LIMIT);
        return v == null || v.isBlank() ? -1 : bytes(EAGER_LIMIT, v, 0, 1 << 20);
    }

    public static long credits(Settings s) {
        return bytes(EAGER_CREDITS, s.value(EAGER_CREDITS), 4096, 1L << 30);
    }

    public static long multirailMin(Settings s) {
        return bytes(MULTIRAIL_MIN, s.value(MULTIRAIL_MIN), 4096, 1L << 40);
    }

    public static boolean multirail(Settings s) {
        return onOff(s, MULTIRAIL);
    }

    public static boolean rendezvousPull(Settings s) {
        return onOff(s, RNDV_PULL);
    }

    public static boolean info(Settings s) {
        String v = s.value(INFO);
        return v != null && (v.equals("1") || v.equalsIgnoreCase("on") || v.equalsIgnoreCase("true"));
    }

    public static boolean progressThread(Settings s) {
        return either(s, PROGRESS, "thread", "caller");
    }

    /** Whether ranks of one process reach each other through the self driver (FERRY_SAME_PROCESS=self). */
    public static boolean sameProcessBySelf(Settings s) {
        return either(s, SAME_PROCESS, "self", "node");
    }

    /** Exactly on or off, as documented: anything else (1, yes, a size) is not understood, and said so. */
    public static boolean onOff(Settings settings, Setting s) {
        return either(settings, s, "on", "off");
    }

    /** A two-way setting: true for {@code yes}, false for {@code no}, anything else an error naming both (unset: its default). */
    private static boolean either(Settings settings, Setting s, String yes, String no) {
        String v = settings.value(s);
        String t = v == null ? s.defaultValue() : v.strip().toLowerCase();
        if (t.equals(yes) || t.equals(no)) {
            return t.equals(yes);
        }
        throw new IllegalArgumentException(s.name() + " must be " + (s.defaultValue().equals(yes) ? yes + " or " + no : no + " or " + yes) + ", not '" + v + "'");
    }

    /**
     * Checks the settings against each other, once at start: an eager limit whose messages cost
     * more than the credits a peer may be owed would never be sent (each immediate message is
     * charged its size, padded to 8, plus a 16-byte header).
     */
    public static void check(long eagerLimit, long credits) {
        check(eagerLimit, credits, Long.toString(eagerLimit), Long.toString(credits));
    }

    /** {@link #check(long, long)}, naming the values as they were written in {@code s}. */
    public static void check(Settings s, long eagerLimit, long credits) {
        check(eagerLimit, credits, s.value(EAGER_LIMIT), s.value(EAGER_CREDITS));
    }

    private static void check(long eagerLimit, long credits, String eagerText, String creditsText) {
        if (eagerLimit >= 0 && WireHeader.immediateBytes(eagerLimit) > credits) {
            throw new IllegalArgumentException(EAGER_LIMIT.name() + "=" + eagerText + " needs "
                    + EAGER_CREDITS.name() + " of at least " + WireHeader.immediateBytes(eagerLimit)
                    + " (a message is charged its size plus a 16-byte header), but it is " + creditsText);
        }
    }

    /** A byte count with an optional k, m or g suffix (powers of two), within [min, max]. */
    public static long bytes(Setting s, String v, long min, long max) {
        String t = v.strip().toLowerCase();
        long unit = 1;
        if (t.endsWith("k") || t.endsWith("m") || t.endsWith("g")) {
            unit = t.endsWith("k") ? 1 << 10 : t.endsWith("m") ? 1 << 20 : 1 << 30;
            t = t.substring(0, t.length() - 1);
        }
        long n;
        try {
            n = Math.multiplyExact(Long.parseLong(t), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(s.name() + " must be a byte count like 16384 or 16k, not '" + v + "'");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(s.name() + " must be between " + min + " and " + max + " bytes, not " + v);
        }
        return n;
    }

    /** FERRY_RAILS: {@code NAME:COUNT,...}. */
    public static Map<String, Integer> railCounts(String spec) {
        Map<String, Integer> m = new LinkedHashMap<>();
        if (spec == null || spec.isBlank()) {
            return m;
        }
        for (String item : spec.split(",")) {
            String[] kv = item.strip().split(":");
            int n;
            try {
                n = kv.length == 2 ? Integer.parseInt(kv[1].strip()) : -1;
            } catch (NumberFormatException e) {
                n = -1;
            }
            if (n < 1 || n > 16 || !kv[0].strip().matches("[a-z][a-z0-9-]*")) {
                throw new IllegalArgumentException(RAILS.name() + ": '" + item.strip() + "' is not NAME:COUNT with COUNT 1..16 (in '" + spec + "')");
            }
            m.put(kv[0].strip(), n);
        }
        return m;
    }
}
