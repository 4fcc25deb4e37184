package dev.ferry.driver.tcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Network namespaces and veth pairs for tests, made with iproute2's {@code ip} (as root). Every
 * command is bounded; a failing one throws with its output.
 */
final class Netns {
    private Netns() {
    }

    static String run(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", cmd) + ": no answer within 30 s");
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " exited " + p.exitValue() + ": " + out);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(String.join(" ", cmd) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Null when namespaces can be made here, else why not (shown as the reason a test is skipped). */
    static String unavailableReason() {
        String probe = "ferry-probe-" + ProcessHandle.current().pid();
        try {
            run("ip", "netns", "add", probe);
            run("ip", "netns", "del", probe);
            return null;
        } catch (IllegalStateException e) {
            return "network namespaces cannot be created here (needs root and iproute2): " + e.getMessage();
        }
    }

    static void add(String ns) {
        run("ip", "netns", "add", ns);
        run("ip", "-n", ns, "link", "set", "lo", "up");
    }

    static void delete(String ns) {
        try {
            run("ip", "netns", "del", ns);
        } catch (IllegalStateException ignored) {
            // already gone
        }
    }

    static void deleteLink(String link) {
        try {
            run("ip", "link", "del", link);
        } catch (IllegalStateException ignored) {
            // already gone (deleting a namespace removes its end, and the pair goes with it)
        }
    }

    /**
     * A veth pair, end {@code a} in namespace {@code nsA} (null: this one) with address {@code ipA},
     * end {@code b} in {@code nsB} with {@code ipB}; both up.
     */
    static void veth(String a, String nsA, String ipA, String b, String nsB, String ipB) {
        run("ip", "link", "add", a, "type", "veth", "peer", "name", b);
        place(a, nsA, ipA);
        place(b, nsB, ipB);
        awaitCarrier(a, nsA);
        awaitCarrier(b, nsB);
    }

    /**
     * Waits until {@code link} has its carrier (LOWER_UP): a veth end is running only once the
     * kernel has seen its peer up too, a moment after both were set up, and a driver that looks
     * before then finds no usable interface.
     */
    private static void awaitCarrier(String link, String ns) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String state;
        while (!(state = run(withNs(ns, "ip", "-o", "link", "show", "dev", link))).contains("LOWER_UP")) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(link + " has no carrier 10 s after both ends were set up: " + state);
            }
            Thread.onSpinWait(); // each look is a process: no need to wait more between them
        }
    }

    private static void place(String link, String ns, String ip) {
        if (ns != null) {
            run("ip", "link", "set", link, "netns", ns);
        }
        run(withNs(ns, "ip", "addr", "add", ip, "dev", link));
        run(withNs(ns, "ip", "link", "set", link, "up"));
    }

    static String[] withNs(String ns, String... cmd) {
        List<String> c = new ArrayList<>();
        if (ns != null) {
            c.addAll(List.of("ip", "netns", "exec", ns));
        }
        c.addAll(List.of(cmd));
        return c.toArray(String[]::new);
    }

    static List<String> execPrefix(String ns) {
        return List.of("ip", "netns", "exec", ns);
    }
}
