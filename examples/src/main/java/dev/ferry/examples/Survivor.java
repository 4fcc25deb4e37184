package dev.ferry.examples;

import dev.ferry.Comm;
import dev.ferry.Datatype;
import dev.ferry.ErrorClass;
import dev.ferry.Ferry;
import dev.ferry.FerryException;
import dev.ferry.Op;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A job that loses ranks and still finishes right: pi as the integral of 4 / (1 + x^2) over
 * [0, 1], in 96 chunks dealt among the ranks. Ranks die at moments a seed chooses (they halt, as
 * a killed process), in any step: while computing, before or during a sum, before the agreement,
 * before the shrink, also while the survivors recover from an earlier death. Each round the
 * ranks alive (1) learn which chunks some survivor holds, (2) compute their share of the rest,
 * (3) gather every chunk's value; a step that fails revokes the communicator, and an agreement
 * tells every survivor alike whether the round held. If not, they acknowledge the failures,
 * shrink, and go again: only the dead ranks' chunks are redone. The answer is then the serial
 * one bit for bit (each chunk's value is computed whole by one rank, added in chunk order).
 *
 * <pre>
 *   bin/ferry run -n 5 --continue-on-failure --example survivor        (a random seed, 2 deaths)
 *   bin/ferry run -n 5 --continue-on-failure --example survivor 7 3    (seed 7, 3 deaths)
 *   bin/ferry run -n 4 --example survivor 1 0                          (nobody dies)
 * </pre>
 */
public final class Survivor {
    static final int CHUNKS = 96, PER_CHUNK = 20_000;
    /** Where a rank can be made to die. */
    public enum Step { COMPUTE, BEFORE_HELD, BEFORE_VALUES, BEFORE_AGREE, BEFORE_SHRINK }

    /** A death the seed chose: job rank {@code rank} halts in round {@code round} at {@code step} (after {@code after} chunks when computing). */
    public record Death(int rank, int round, Step step, int after) {
    }

    private Survivor() {
    }

    public static void main(String[] args) {
        try (Ferry ferry = Ferry.init()) {
            Comm world = ferry.world();
            long[] seed = {args.length > 0 ? Long.parseLong(args[0]) : System.nanoTime()};
            world.bcast(seed, 0, 1, Datatype.LONG, 0); // every rank plans the same deaths
            // ... and has its seed before any dies: a rank that halts loses what it sent and was not
            // yet delivered (the bcast's last hop, say), while an agreement ends among the survivors
            try {
                world.agree(1);
            } catch (FerryException e) { // a death already: the first round's sums fail and the survivors recover
                if (e.errorClass() != ErrorClass.PROC_FAILED) {
                    throw e;
                }
            }
            int deaths = args.length > 1 ? Integer.parseInt(args[1]) : 2;
            List<Death> plan = plan(seed[0], Math.min(deaths, world.size() - 1), world.size());
            run(world, plan, seed[0]);
        }
    }

    /** The deaths: distinct ranks, in rounds 1 and 2 (round 2 is a recovery's), at steps chosen at random. */
    public static List<Death> plan(long seed, int deaths, int size) {
        Random random = new Random(seed);
        List<Integer> ranks = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            ranks.add(r);
        }
        java.util.Collections.shuffle(ranks, random);
        List<Death> plan = new ArrayList<>();
        for (int i = 0; i < deaths; i++) {
            Step step = Step.values()[random.nextInt(Step.values().length)];
            plan.add(new Death(ranks.get(i), 1 + random.nextInt(2), step, random.nextInt(CHUNKS / size + 1)));
        }
        return plan;
    }

    private static void run(Comm world, List<Death> plan, long seed) {
        int me = world.rank();
        Death mine = plan.stream().filter(d -> d.rank == me).findFirst().orElse(null);
        double[] value = new double[CHUNKS];
        int[] have = new int[CHUNKS];
        Comm comm = world;
        int round = 0, computed = 0, redone = 0;
        while (true) {
            round++;
            boolean ok = true;
            double[] total = new double[CHUNKS];
            int[] held = new int[CHUNKS];
            try {
                dieIf(mine, round, Step.BEFORE_HELD, 0);
                comm.allreduce(have, 0, held, 0, CHUNKS, Datatype.INT, Op.MAX); // which chunks some survivor holds
                List<Integer> missing = new ArrayList<>();
                for (int c = 0; c < CHUNKS; c++) {
                    if (held[c] == 0) {
                        missing.add(c);
                    }
                }
                if (round > 1 && redone == 0) {
                    redone = missing.size();
                }
                for (int i = comm.rank(); i < missing.size(); i += comm.size()) {
                    dieIf(mine, round, Step.COMPUTE, computed);
                    int c = missing.get(i);
                    value[c] = chunk(c);
                    have[c] = 1;
                    computed++;
                }
                dieIf(mine, round, Step.BEFORE_VALUES, 0);
                comm.allreduce(value, 0, total, 0, CHUNKS, Datatype.DOUBLE, Op.MAX); // each chunk's value, from the survivor that holds it
                for (int c = 0; c < CHUNKS; c++) {
                    if (total[c] <= 0) { // a sum that every member finished covers every chunk: this would be a bug
                        throw new IllegalStateException("chunk " + c + " has no value after round " + round);
                    }
                }
            } catch (FerryException e) {
                if (e.errorClass() != ErrorClass.PROC_FAILED && e.errorClass() != ErrorClass.REVOKED
                        && e.errorClass() != ErrorClass.PROC_FAILED_PENDING) {
                    throw e;
                }
                ok = false;
                comm.revoke(); // the others stop waiting in this round's sums
            }
            dieIf(mine, round, Step.BEFORE_AGREE, 0);
            int allOk;
            try {
                allOk = comm.agree(ok ? 1 : 0);
            } catch (FerryException e) { // a failure not everyone had acknowledged: every survivor hears it alike
                if (e.errorClass() != ErrorClass.PROC_FAILED) {
                    throw e;
                }
                allOk = 0;
            }
            if (allOk == 1) {
                finish(comm, world.size(), total, round, redone, seed);
                break;
            }
            dieIf(mine, round, Step.BEFORE_SHRINK, 0);
            comm.ackFailed(comm.getFailed().size());
            Comm survivors = comm.shrink();
            if (comm != world) {
                comm.free();
            }
            comm = survivors;
        }
        if (comm != world) {
            comm.free();
        }
    }

    private static void finish(Comm comm, int worldSize, double[] total, int rounds, int redone, long seed) {
        if (comm.rank() != 0) {
            return;
        }
        double pi = 0, serial = 0;
        for (int c = 0; c < CHUNKS; c++) {
            pi += total[c];
            serial += chunk(c);
        }
        System.out.printf("pi is %.12f, %s the serial sum, after %d round%s on %d survivor%s of %d ranks"
                        + " (seed %d; %d chunks redone)%n", pi, pi == serial ? "exactly" : "NOT", rounds, rounds == 1 ? "" : "s",
                comm.size(), comm.size() == 1 ? "" : "s", worldSize, seed, redone);
    }

    private static void dieIf(Death d, int round, Step step, int computed) {
        if (d != null && d.round == round && d.step == step && (step != Step.COMPUTE || computed >= d.after)) {
            System.out.flush();
            Runtime.getRuntime().halt(3); // as a killed process: no goodbye
        }
    }

    /** The midpoint sum of chunk {@code c}: the same whichever rank computes it. */
    static double chunk(int c) {
        double h = 1.0 / ((long) CHUNKS * PER_CHUNK), s = 0;
        for (int i = c * PER_CHUNK; i < (c + 1) * PER_CHUNK; i++) {
            double x = h * (i + 0.5);
            s += 4.0 / (1.0 + x * x);
        }
        return s * h;
    }
}
