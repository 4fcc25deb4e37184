package mpijava;

import mpi.*;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * MPI.OBJECT (mpiJava 1.2): serializable objects by Send / Recv (with ANY_SOURCE and Probe), Bcast
 * and Gather, persistent synchronous sends (Ssend_init, Recv_init, Startall, Waitall), and
 * Allreduce, Reduce, Scan and Reduce_scatter by a user operation that does not commute, and
 * Gatherv, Allgatherv, Scatterv and Alltoallv with blocks of different sizes, and objects holding
 * large arrays (sent beside the serialized stream) by Isend / Irecv and Ssend / Recv.
 */
public class SerializedObjects {
    record Order(int from, String item, List<Integer> amounts) implements Serializable {
    }

    public static void main(String[] args) throws Exception {
        args = MPI.Init(args); // MPJ Express passes arguments of its own and strips them here
        int rank = MPI.COMM_WORLD.Rank(), size = MPI.COMM_WORLD.Size();
        Object[] one = new Object[1];
        if (rank == 0) {
            one[0] = new ArrayList<>(List.of("config", size, 3.5));
        }
        MPI.COMM_WORLD.Bcast(one, 0, 1, MPI.OBJECT, 0);
        boolean ok = one[0].equals(List.of("config", size, 3.5));
        if (rank != 0) {
            Object[] order = {new Order(rank, "item-" + rank, List.of(rank, rank * 2))};
            MPI.COMM_WORLD.Send(order, 0, 1, MPI.OBJECT, 0, 9);
        } else {
            for (int i = 1; i < size; i++) {
                Status probe = MPI.COMM_WORLD.Probe(MPI.ANY_SOURCE, 9);
                Object[] got = new Object[1];
                Status s = MPI.COMM_WORLD.Recv(got, 0, 1, MPI.OBJECT, probe.source, 9);
                Order o = (Order) got[0];
                ok &= o.from() == s.source && o.item().equals("item-" + s.source) && o.amounts().equals(List.of(s.source, s.source * 2));
            }
        }
        Object[] names = new Object[size];
        MPI.COMM_WORLD.Gather(new Object[] {"rank-" + rank}, 0, 1, MPI.OBJECT, names, 0, 1, MPI.OBJECT, 0);
        if (rank == 0) {
            for (int i = 0; i < size; i++) {
                ok &= ("rank-" + i).equals(names[i]);
            }
        }
        // persistent synchronous sends of objects around a ring, each rank waiting for its send
        // first: its receive (whose size is unknown) must match while that send waits
        Object[] out = new Object[2], in = new Object[2];
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        Prequest send = MPI.COMM_WORLD.Ssend_init(out, 0, 2, MPI.OBJECT, right, 11);
        Prequest recv = MPI.COMM_WORLD.Recv_init(in, 0, 2, MPI.OBJECT, left, 11);
        for (int round = 0; round < 3; round++) {
            out[0] = "round-" + round;
            out[1] = List.of(rank, round);
            Prequest.Startall(new Prequest[] {send, recv});
            Request.Waitall(new Request[] {send, recv});
            ok &= ("round-" + round).equals(in[0]) && List.of(left, round).equals(in[1]);
        }
        send.Free();
        recv.Free();
        // reductions of objects with a user operation that does not commute: concatenation in rank order
        Op concat = new Op(new User_function() {
            @Override
            public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype) {
                Object[] a = (Object[]) invec, b = (Object[]) inoutvec;
                for (int i = 0; i < count; i++) {
                    b[inoutoffset + i] = (String) a[inoffset + i] + b[inoutoffset + i];
                }
            }
        }, false);
        StringBuilder rs = new StringBuilder(), ss = new StringBuilder(), upTo = new StringBuilder();
        for (int r = 0; r < size; r++) {
            rs.append('r').append(r).append(',');
            ss.append('s').append(r).append(',');
            if (r <= rank) {
                upTo.append('r').append(r).append(',');
            }
        }
        Object[] mine = {"r" + rank + ",", "s" + rank + ","}, reduced = new Object[2];
        MPI.COMM_WORLD.Allreduce(mine, 0, reduced, 0, 2, MPI.OBJECT, concat);
        ok &= rs.toString().equals(reduced[0]) && ss.toString().equals(reduced[1]);
        Object[] atRoot = new Object[3];
        MPI.COMM_WORLD.Reduce(mine, 0, atRoot, 1, 2, MPI.OBJECT, concat, 0);
        ok &= rank != 0 || rs.toString().equals(atRoot[1]) && ss.toString().equals(atRoot[2]);
        Object[] prefix = new Object[2];
        MPI.COMM_WORLD.Scan(mine, 0, prefix, 0, 2, MPI.OBJECT, concat);
        ok &= upTo.toString().equals(prefix[0]);
        Object[] slots = new Object[size];
        int[] ones = new int[size];
        for (int i = 0; i < size; i++) {
            slots[i] = rank + "." + i + ";";
            ones[i] = 1;
        }
        Object[] mySlot = new Object[1];
        MPI.COMM_WORLD.Reduce_scatter(slots, 0, mySlot, 0, ones, MPI.OBJECT, concat);
        StringBuilder slot = new StringBuilder();
        for (int r = 0; r < size; r++) {
            slot.append(r).append('.').append(rank).append(';');
        }
        ok &= slot.toString().equals(mySlot[0]);
        // the v forms: rank r sends r + 1 objects, laid out with a gap of one between blocks
        int[] counts = new int[size], displs = new int[size];
        int total = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = r + 1;
            displs[r] = total + r;
            total += r + 1;
        }
        int span = total + size;
        Object[] block = new Object[rank + 1];
        for (int i = 0; i <= rank; i++) {
            block[i] = rank + ":" + i;
        }
        Object[] gathered = new Object[span];
        MPI.COMM_WORLD.Gatherv(block, 0, rank + 1, MPI.OBJECT, gathered, 0, counts, displs, MPI.OBJECT, 0);
        Object[] everyBlock = new Object[span];
        MPI.COMM_WORLD.Allgatherv(block, 0, rank + 1, MPI.OBJECT, everyBlock, 0, counts, displs, MPI.OBJECT);
        for (int r = 0; r < size; r++) {
            for (int i = 0; i <= r; i++) {
                ok &= (r + ":" + i).equals(everyBlock[displs[r] + i]) && (rank != 0 || (r + ":" + i).equals(gathered[displs[r] + i]));
            }
            ok &= everyBlock[displs[r] + r + 1] == null; // the gap after each block stays untouched
        }
        Object[] back = new Object[rank + 1];
        MPI.COMM_WORLD.Scatterv(everyBlock, 0, counts, displs, MPI.OBJECT, back, 0, rank + 1, MPI.OBJECT, 0);
        ok &= java.util.Arrays.equals(block, back);
        // alltoallv: rank r sends j + 1 objects to rank j, "r>j:i"
        int[] scounts = new int[size], sdispls = new int[size], rcounts = new int[size], rdispls = new int[size];
        int sTotal = 0;
        for (int j = 0; j < size; j++) {
            scounts[j] = j + 1;
            sdispls[j] = sTotal;
            sTotal += j + 1;
            rcounts[j] = rank + 1;
            rdispls[j] = j * (rank + 1);
        }
        Object[] toAll = new Object[sTotal];
        for (int j = 0; j < size; j++) {
            for (int i = 0; i <= j; i++) {
                toAll[sdispls[j] + i] = rank + ">" + j + ":" + i;
            }
        }
        Object[] fromAll = new Object[size * (rank + 1)];
        MPI.COMM_WORLD.Alltoallv(toAll, 0, scounts, sdispls, MPI.OBJECT, fromAll, 0, rcounts, rdispls, MPI.OBJECT);
        for (int j = 0; j < size; j++) {
            for (int i = 0; i <= rank; i++) {
                ok &= (j + ">" + rank + ":" + i).equals(fromAll[rdispls[j] + i]);
            }
        }
        // objects holding large arrays (which travel beside the serialized stream) around the ring:
        // Isend / Irecv, then Ssend / Recv
        double[] samples = new double[200_000];
        java.util.Arrays.fill(samples, rank + 0.25);
        Object[] heavy = {new Order(rank, "samples", List.of(rank)), samples}, got = new Object[2];
        Request hs = MPI.COMM_WORLD.Isend(heavy, 0, 2, MPI.OBJECT, right, 12);
        Request hr = MPI.COMM_WORLD.Irecv(got, 0, 2, MPI.OBJECT, left, 12);
        Request.Waitall(new Request[] {hs, hr});
        ok &= ((Order) got[0]).from() == left && ((double[]) got[1]).length == 200_000 && ((double[]) got[1])[199_999] == left + 0.25;
        if (size == 1) { // a synchronous send to itself would wait for a receive that comes after it
            MPI.COMM_WORLD.Send(heavy, 0, 2, MPI.OBJECT, right, 13);
            MPI.COMM_WORLD.Recv(got, 0, 2, MPI.OBJECT, left, 13);
        } else if (rank % 2 == 0) {
            MPI.COMM_WORLD.Ssend(heavy, 0, 2, MPI.OBJECT, right, 13);
            MPI.COMM_WORLD.Recv(got, 0, 2, MPI.OBJECT, left, 13);
        } else {
            MPI.COMM_WORLD.Recv(got, 0, 2, MPI.OBJECT, left, 13);
            MPI.COMM_WORLD.Ssend(heavy, 0, 2, MPI.OBJECT, right, 13);
        }
        ok &= ((double[]) got[1])[0] == left + 0.25;
        // and through the collectives, whose blocks' large arrays go beside their bytes too
        Object[] fromRoot = rank == 0 ? heavy.clone() : new Object[2];
        MPI.COMM_WORLD.Bcast(fromRoot, 0, 2, MPI.OBJECT, 0);
        ok &= ((double[]) fromRoot[1])[199_999] == 0.25 && ((Order) fromRoot[0]).from() == 0;
        Object[] everyones = new Object[2 * size];
        MPI.COMM_WORLD.Allgather(heavy, 0, 2, MPI.OBJECT, everyones, 0, 2, MPI.OBJECT);
        Object[] heavyAtRoot = new Object[2 * size];
        MPI.COMM_WORLD.Gather(heavy, 0, 2, MPI.OBJECT, heavyAtRoot, 0, 2, MPI.OBJECT, 0);
        Object[] perRank = new Object[size], mineBack = new Object[1], swapped = new Object[size];
        for (int j = 0; j < size; j++) {
            double[] a = new double[100_000 + j];
            java.util.Arrays.fill(a, rank * 1000 + j);
            perRank[j] = a;
        }
        MPI.COMM_WORLD.Scatter(perRank, 0, 1, MPI.OBJECT, mineBack, 0, 1, MPI.OBJECT, 0);
        MPI.COMM_WORLD.Alltoall(perRank, 0, 1, MPI.OBJECT, swapped, 0, 1, MPI.OBJECT);
        ok &= ((double[]) mineBack[0]).length == 100_000 + rank && ((double[]) mineBack[0])[99_999] == rank;
        for (int r = 0; r < size; r++) {
            ok &= ((double[]) everyones[2 * r + 1])[199_999] == r + 0.25 && ((Order) everyones[2 * r]).from() == r;
            ok &= rank != 0 || ((double[]) heavyAtRoot[2 * r + 1])[0] == r + 0.25;
            ok &= ((double[]) swapped[r]).length == 100_000 + rank && ((double[]) swapped[r])[99_999] == r * 1000 + rank;
        }
        boolean[] flag = {ok}, all = {false};
        MPI.COMM_WORLD.Allreduce(flag, 0, all, 0, 1, MPI.BOOLEAN, MPI.LAND);
        if (rank == 0) {
            System.out.println((all[0] ? "ok" : "WRONG") + " objects: bcast, " + (size - 1) + " orders by ANY_SOURCE, gather of " + size
                    + " names, 3 rounds of persistent synchronous sends around the ring, reductions by a user operation, the v forms,"
                    + " objects with large arrays around the ring and through the collectives");
        }
        MPI.Finalize();
    }
}
