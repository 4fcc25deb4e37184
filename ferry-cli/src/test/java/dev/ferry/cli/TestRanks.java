package dev.ferry.cli;

import dev.ferry.launch.pmi.Bootstrap;
import dev.ferry.launch.pmi.Bootstraps;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Ranks for the launcher's tests. Each prints {@code pid PID job JOBID} and leaves a file
 * {@code /dev/shm/ferry-JOBID-rankR} (as a shared-memory driver's segment would be), then:
 * <ul>
 *   <li>{@code ok}: fences and exits 0;</li>
 *   <li>{@code abort}: rank 1 aborts the job with code 7, the others wait in a fence;</li>
 *   <li>{@code die}: rank 1 is killed with SIGKILL, the others wait in a fence;</li>
 *   <li>{@code hang}: every rank waits forever.</li>
 * </ul>
 */
public final class TestRanks {
    private TestRanks() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Bootstrap b = Bootstraps.fromEnvironment();
        String job = System.getenv("FERRY_JOB_ID");
        Files.writeString(Path.of("/dev/shm", "ferry-" + job + "-rank" + b.rank()), "segment");
        System.out.println("pid " + ProcessHandle.current().pid() + " job " + job);
        System.out.flush();
        switch (mode) {
            case "ok" -> {
                b.fence();
                b.close();
            }
            case "abort", "die" -> {
                if (b.rank() == 1) {
                    if (mode.equals("abort")) {
                        b.abort(7, "test abort");
                    } else {
                        new ProcessBuilder("kill", "-9", String.valueOf(ProcessHandle.current().pid())).start().waitFor();
                    }
                }
                b.fence(); // never completes: rank 1 never arrives
            }
            case "hang" -> new CountDownLatch(1).await();
            default -> throw new IllegalArgumentException(mode);
        }
    }
}
