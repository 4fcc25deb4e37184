package dev.ferry.driver.ucx;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This host's identity for pid checks: the boot id and the pid namespace. Processes with equal
 * ones can check each other's pids (an instance reached without UCX's peer failure detection is
 * watched that way, see {@link UcxInstance#checkLiveness()}).
 */
final class HostId {
    private HostId() {
    }

    static String current() {
        String boot;
        try {
            boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
        } catch (Exception e) {
            boot = "unknown-boot";
        }
        String ns;
        try {
            ns = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
        } catch (Exception e) {
            ns = "unknown-ns";
        }
        return boot + "/" + ns;
    }
}
