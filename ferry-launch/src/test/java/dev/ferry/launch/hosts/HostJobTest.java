package dev.ferry.launch.hosts;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HostJobTest {
    @Test
    void ranksOnOtherHostsGetTheLaunchersFerrySettingsButNotWhatIsMeantForThisSide() {
        Map<String, String> launcher = Map.of("FERRY_TCP_TLS", "on", "FERRY_SSH", "rsh", "FERRY_HOME", "/opt/ferry",
                "FERRY_JOB_KEY", "old", "FERRY_LAUNCHER_PID", "1", "PATH", "/bin", "FERRY_EAGER_LIMIT", "4096");
        Map<String, String> job = Map.of("FERRY_EAGER_LIMIT", "8192", "FERRY_DRIVERS", "tcp");
        assertEquals(Map.of("FERRY_TCP_TLS", "on", "FERRY_EAGER_LIMIT", "8192", "FERRY_DRIVERS", "tcp"), HostJob.remoteEnv(launcher, job));
    }
}
