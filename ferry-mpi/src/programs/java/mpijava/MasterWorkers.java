package mpijava;

import mpi.*;

/**
 * A master and its workers on an intercommunicator (mpiJava 1.2's Create_intercomm): rank 0 is the
 * master's group, the others the workers'. The master hands out tasks with Send to remote ranks and
 * collects answers from ANY_SOURCE; it broadcasts the job's parameters with Bcast(ROOT); the
 * workers reduce their counts to it (Reduce, ROOT); Allreduce and Barrier span both groups;
 * Merge makes one intracommunicator again, masters first, whose Allreduce checks the whole.
 */
public class MasterWorkers {
    public static void main(String[] args) throws Exception {
        args = MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank(), size = MPI.COMM_WORLD.Size();
        boolean master = rank == 0;
        Intracomm mine = MPI.COMM_WORLD.Split(master ? 0 : 1, rank);
        Intercomm inter = MPI.COMM_WORLD.Create_intercomm(mine, 0, master ? 1 : 0, 17);
        boolean ok = inter.Test_inter() && !mine.Test_inter();
        int workers = size - 1;
        ok &= inter.Size() == (master ? 1 : workers) && inter.Remote_size() == (master ? workers : 1);
        ok &= inter.Remote_group().Size() == inter.Remote_size();

        // the parameters: from the master (ROOT) to every worker (root 0 of the remote group)
        int[] params = {master ? 7 : 0, master ? 1000 : 0};
        inter.Bcast(params, 0, 2, MPI.INT, master ? MPI.ROOT : 0);
        ok &= params[0] == 7 && params[1] == 1000;

        int tasks = 3 * workers, done = 0;
        long total = 0;
        if (master) {
            int next = 0;
            for (int w = 0; w < workers && next < tasks; w++) {
                inter.Send(new int[] {next++}, 0, 1, MPI.INT, w, 1);
            }
            while (done < tasks) {
                long[] answer = new long[2];
                Status s = inter.Recv(answer, 0, 2, MPI.LONG, MPI.ANY_SOURCE, 2);
                ok &= s.source >= 0 && s.source < workers;
                total += answer[1];
                done++;
                inter.Send(new int[] {next < tasks ? next++ : -1}, 0, 1, MPI.INT, s.source, 1);
            }
        } else {
            while (true) {
                int[] task = new int[1];
                inter.Recv(task, 0, 1, MPI.INT, 0, 1);
                if (task[0] < 0) {
                    break;
                }
                long square = (long) task[0] * task[0] * params[0];
                inter.Send(new long[] {task[0], square}, 0, 2, MPI.LONG, 0, 2);
                done++;
            }
        }
        long expected = 0;
        for (int t = 0; t < tasks; t++) {
            expected += (long) t * t * 7;
        }
        ok &= !master || total == expected;

        // how many tasks each worker did, summed at the master
        int[] count = {done}, sum = {-1};
        inter.Reduce(count, 0, sum, 0, 1, MPI.INT, MPI.SUM, master ? MPI.ROOT : 0);
        ok &= !master || sum[0] == tasks;

        // each group gets the other's sum of world ranks
        int[] ranks = {rank}, others = new int[1];
        inter.Allreduce(ranks, 0, others, 0, 1, MPI.INT, MPI.SUM);
        ok &= others[0] == (master ? size * (size - 1) / 2 : 0);
        inter.Barrier();

        Intracomm all = inter.Merge(!master);
        ok &= all.Size() == size && all.Rank() == rank;
        int[] check = {ok ? 1 : 0}, min = new int[1];
        all.Allreduce(check, 0, min, 0, 1, MPI.INT, MPI.MIN);
        if (rank == 0) {
            System.out.println(min[0] == 1 ? "ok master and " + workers + " workers on an intercommunicator" : "WRONG master and workers");
        }
        inter.Free();
        MPI.Finalize();
    }
}
