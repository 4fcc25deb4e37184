package dev.ferry.cli;

import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.launch.pmi.Bootstrap;
import dev.ferry.launch.pmi.Bootstraps;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.Hints;

import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Ranks for the launcher's tests. Each opens a context of the shm driver (its real segment in
 * /dev/shm, named as the driver names it for the launcher's job id), prints
 * {@code pid PID job JOBID}, then:
 * <ul>
 *   <li>{@code ok}: fences and exits 0;</li>
 *   <li>{@code abort}: rank 1 aborts the job with code 7, the others wait in a fence;</li>
 *   <li>{@code die}: rank 1 is killed with SIGKILL, the others wait in a fence;</li>
 *   <li>{@code throw}: rank 1 throws out of main, the others wait in a fence;</li>
 *   <li>{@code hang}: every rank waits forever, and prints {@code ending rank R} when it is ended.</li>
 * </ul>
 */
public final class TestRanks {
    private TestRanks() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Bootstrap b = Bootstraps.fromEnvironment();
        String job = System.getenv().getOrDefault("FERRY_JOB_ID", b.jobId()); // ferry run sets it; other launchers name the job themselves
        DriverContext shm = DriverCatalog.discover().find("shm").orElseThrow().driver()
                .newContext(new Hints(b.size(), b.rank(), true, Map.of(Hints.JOB_ID, job)));
        shm.properties();
        shm.init(); // its segment: removed by close, left behind when the rank dies first
        System.out.println("pid " + ProcessHandle.current().pid() + " job " + job);
        System.out.flush();
        switch (mode) {
            case "ok" -> {
                b.fence();
                shm.close();
                b.close();
            }
            case "throw" -> {
                b.fence();
                if (b.rank() == 1) {
                    throw new IllegalStateException("rank 1 failed on purpose");
                }
                b.fence(); // never completes: rank 1 never arrives
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
            case "hang" -> {
                int rank = b.rank();
                Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("ending rank " + rank)));
                new CountDownLatch(1).await();
            }
            default -> throw new IllegalArgumentException(mode);
        }
    }
}
