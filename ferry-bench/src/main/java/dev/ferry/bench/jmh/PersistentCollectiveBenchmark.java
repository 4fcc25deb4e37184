package dev.ferry.bench.jmh;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.Ferry;
import dev.ferry.Op;
import dev.ferry.PersistentRequest;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An 8-byte allreduce between two in-process ranks, persistent ({@code allreduceInit} once, then
 * {@code start} and {@code await} per operation) against blocking: the benchmark thread is rank 0,
 * a thread of the job is rank 1, which does each round alike. Run with {@code -prof gc}:
 * {@code gc.alloc.rate.norm} is what one start allocates at rank 0 (MPI-4's promise for persistent
 * collectives: nothing).
 *
 * <pre>
 *   bin/ferry bench jmh PersistentCollective -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PersistentCollectiveBenchmark {
    /** Rank 0 brings 0 while the benchmark runs and 1 in the last round: rank 1's result says when to stop, so both do as many rounds. */
    private final double[] x = {0};
    private final double[] y = new double[1];
    private Comm world;
    private PersistentRequest persistent;
    private Thread job;
    private final CountDownLatch finished = new CountDownLatch(1);

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        boolean persistentForm = form.equals("persistent");
        CompletableFuture<Ferry> rank0 = new CompletableFuture<>();
        job = new Thread(() -> Ferry.runInProcess(2, Duration.ofHours(1), f -> {
            Comm w = f.world();
            if (w.rank() == 0) {
                rank0.complete(f);
                finished.await();
                return;
            }
            double[] mine = {0}, sum = new double[1];
            PersistentRequest p = w.allreduceInit(mine, 0, sum, 0, 1, Datatype.DOUBLE, Op.MAX);
            while (sum[0] == 0) { // the rounds of the form rank 0 measures
                if (persistentForm) {
                    p.start();
                    p.await();
                } else {
                    w.allreduce(mine, 0, sum, 0, 1, Datatype.DOUBLE, Op.MAX);
                }
            }
            p.free();
        }), "rank 1");
        job.start();
        world = rank0.get(1, TimeUnit.MINUTES).world();
        persistent = world.allreduceInit(x, 0, y, 0, 1, Datatype.DOUBLE, Op.MAX);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        x[0] = 1;
        allreduce8();
        persistent.free();
        finished.countDown();
        job.join(TimeUnit.MINUTES.toMillis(1));
    }

    @Param({"persistent", "blocking"})
    public String form;

    /** One 8-byte allreduce: a start and its completion, or one blocking call. */
    @Benchmark
    public double allreduce8() {
        if (form.equals("persistent")) {
            persistent.start();
            persistent.await();
        } else {
            world.allreduce(x, 0, y, 0, 1, Datatype.DOUBLE, Op.MAX);
        }
        return y[0];
    }
}
