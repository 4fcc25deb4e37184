package dev.ferry.launch.hosts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hosts of a job, as Open MPI and Hydra users write them: {@code --hosts a:2,b:2,c} (a host
 * name and its slots, 1 when not given), or a host file of one host per line ({@code a slots=2},
 * {@code b:2}, {@code # comments}). A host named twice adds its slots together.
 *
 * <pre>{@code
 * List<HostList.Host> hosts = HostList.parse("vc1:2,vc2:2");
 * }</pre>
 */
public final class HostList {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9.\\-_]*[A-Za-z0-9])?|\\[[0-9a-fA-F:]+]");
    private static final Pattern FILE_LINE = Pattern.compile("(\\S+?)(?::(\\d+))?(?:\\s+(.*))?");

    /** A host and how many ranks it runs when filled by slot. */
    public record Host(String name, int slots) {
        public Host {
            if (slots < 1) {
                throw new IllegalArgumentException("host " + name + " has " + slots + " slots; at least 1");
            }
        }
    }

    private HostList() {
    }

    /** {@code --hosts}: {@code NAME[:SLOTS],...}. */
    public static List<Host> parse(String spec) {
        List<Host> hosts = new ArrayList<>();
        for (String item : spec.split(",", -1)) {
            String s = item.strip();
            if (s.isEmpty()) {
                throw new IllegalArgumentException("--hosts has an empty entry in '" + spec + "' (the form is h1[:slots],h2[:slots])");
            }
            int colon = s.lastIndexOf(':');
            String name = s;
            int slots = 1;
            if (colon > 0 && !s.endsWith("]")) {
                name = s.substring(0, colon);
                slots = slots(s.substring(colon + 1), "--hosts entry '" + s + "'");
            }
            add(hosts, name, slots, "--hosts");
        }
        return List.copyOf(hosts);
    }

    /** A host file: one host per line, {@code NAME [slots=N]} or {@code NAME:N}, # starts a comment. */
    public static List<Host> read(Path file) throws IOException {
        List<Host> hosts = new ArrayList<>();
        int n = 0;
        for (String raw : Files.readAllLines(file)) {
            n++;
            String line = raw.replaceFirst("#.*", "").strip();
            if (line.isEmpty()) {
                continue;
            }
            String where = file + ":" + n;
            Matcher m = FILE_LINE.matcher(line);
            if (!m.matches()) {
                throw new IllegalArgumentException(where + ": cannot read '" + raw + "' (the form is 'host slots=N')");
            }
            int slots = m.group(2) == null ? 1 : slots(m.group(2), where);
            if (m.group(3) != null) {
                for (String kv : m.group(3).strip().split("\\s+")) {
                    if (kv.startsWith("slots=")) {
                        slots = slots(kv.substring(6), where);
                    } else if (!kv.startsWith("max_slots=") && !kv.startsWith("max-slots=")) {
                        throw new IllegalArgumentException(where + ": unknown field '" + kv + "' (known: slots=N, max_slots=N)");
                    }
                }
            }
            add(hosts, m.group(1), slots, where);
        }
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException(file + " names no host");
        }
        return List.copyOf(hosts);
    }

    /** The total of the hosts' slots. */
    public static int slots(List<Host> hosts) {
        return hosts.stream().mapToInt(Host::slots).sum();
    }

    private static void add(List<Host> hosts, String name, int slots, String where) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(where + ": '" + name + "' is not a host name");
        }
        for (int i = 0; i < hosts.size(); i++) {
            if (hosts.get(i).name().equals(name)) {
                hosts.set(i, new Host(name, hosts.get(i).slots() + slots));
                return;
            }
        }
        hosts.add(new Host(name, slots));
    }

    private static int slots(String s, String where) {
        try {
            int v = Integer.parseInt(s);
            if (v >= 1 && v <= 100_000) {
                return v;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(where + ": slots must be a number from 1 to 100000, not '" + s + "'");
    }
}
