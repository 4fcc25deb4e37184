package checks;

import mpi.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.Arrays;

/**
 * The mpi package's calls, each checked for its exact result on every rank: point-to-point in
 * both APIs' names (wildcards, statuses, PROC_NULL, booleans, objects, persistent requests, arrays
 * of requests, matched probes, truncation), every collective in both names with in-place forms,
 * user operations, MINLOC / MAXLOC, groups and communicators, Cartesian, graph and distributed
 * graph topologies with neighbourhood collectives, pack / unpack, one-sided windows in every
 * synchronization mode, attributes, info and error handlers. Prints "ok NAME" per check; a
 * failed check throws, naming what differed.
 */
public class ApiChecks {
    static int rank, size;
    static Intracomm world;

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("rank " + rank + ": " + what);
        }
    }

    static void ok(String name) throws MPIException {
        world.barrier();
        if (rank == 0) {
            System.out.println("ok " + name);
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        rank = world.getRank();
        size = world.getSize();
        check(MPI.isInitialized() && !MPI.isFinalized() && MPI.queryThread() == MPI.THREAD_MULTIPLE, "initialized, thread level");
        pointToPoint();
        requests();
        specialBuffers();
        collectives();
        collectivesMpiJava();
        operations();
        groupsAndCommunicators();
        topologies();
        packing();
        windows();
        largeCounts();
        errors();
        MPI.Finalize();
        check(MPI.isFinalized(), "finalized");
    }

    static void pointToPoint() throws MPIException {
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        int[] out = {rank, rank * 10}, in = new int[4];
        Request r = world.iRecv(IntBuffer.wrap(in), 4, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
        world.send(out, 2, MPI.INT, next, 40 + rank);
        Status s = r.waitStatus();
        check(s.getSource() == prev && s.getTag() == 40 + prev && s.getCount(MPI.INT) == 2 && in[1] == prev * 10, "wildcard receive: " + s);
        check(s.source == prev && s.tag == 40 + prev && s.Get_count(MPI.INT) == 2 && s.count == 2, "mpiJava's status fields: " + s);
        // PROC_NULL: nothing moves, the status says so
        Status n = world.recv(in, 1, MPI.INT, MPI.PROC_NULL, 0);
        world.send(out, 1, MPI.INT, MPI.PROC_NULL, 0);
        check(n.getSource() == MPI.PROC_NULL && n.getCount(MPI.INT) == 0, "PROC_NULL receive: " + n);
        // probe, then a receive of exactly the probed size; synchronous send
        double[] d = {rank + 0.5, 2, 3};
        Request sr = world.isSend(DoubleBuffer.wrap(d), 3, MPI.DOUBLE, next, 7);
        Status p = world.probe(prev, 7);
        double[] got = new double[p.getCount(MPI.DOUBLE)];
        world.recv(got, got.length, MPI.DOUBLE, prev, 7);
        sr.waitFor();
        check(got.length == 3 && got[0] == prev + 0.5, "probe and receive");
        check(world.iProbe(prev, 7) == null, "no message left");
        // MPI-4's large counts, a Ferry extension: the long forms and MPI_Get_count_c's getCountLong
        ByteBuffer bigOut = ByteBuffer.allocateDirect(1 << 20), bigIn = ByteBuffer.allocateDirect(1 << 20);
        bigOut.put(12345, (byte) rank);
        Request lr = world.iRecv(bigIn, (long) (1 << 20), MPI.BYTE, prev, 12);
        world.send(bigOut, (long) (1 << 20), MPI.BYTE, next, 12);
        Status ls = lr.waitStatus();
        check(ls.getCountLong(MPI.BYTE) == 1 << 20 && bigIn.get(12345) == (byte) prev, "large-count send and iRecv: " + ls);
        Request ls2 = world.iSend(bigOut, 1000L, MPI.INT, next, 13);
        Status li = world.recv(bigIn, 1000L, MPI.INT, prev, 13);
        ls2.waitFor();
        check(li.getCountLong(MPI.INT) == 1000 && li.getCount(MPI.INT) == 1000, "large-count iSend and recv: " + li);
        // send-receive and its replace form
        long[] v = {rank};
        world.sendRecvReplace(v, 1, MPI.LONG, next, 8, prev, 8);
        check(v[0] == prev, "sendRecvReplace");
        int[] mine = {rank}, theirs = new int[1];
        world.Sendrecv(mine, 0, 1, MPI.INT, next, 9, theirs, 0, 1, MPI.INT, prev, 9);
        check(theirs[0] == prev, "Sendrecv");
        // matched probe: the message is taken out of matching
        world.send(new int[] {rank, 1, 2}, 3, MPI.INT, next, 11);
        Message m = new Message();
        Status ms = m.mProbe(MPI.ANY_SOURCE, 11, world);
        int[] mr = new int[ms.getCount(MPI.INT)];
        m.mRecv(mr, mr.length, MPI.INT);
        check(mr.length == 3 && mr[0] == prev && m.isNull(), "mProbe / mRecv");
        // mpiJava's names with offsets
        char[] cs = "..hello".toCharArray(), cr = new char[8];
        world.Send(cs, 2, 5, MPI.CHAR, next, 12);
        Status cst = world.Recv(cr, 3, 5, MPI.CHAR, prev, 12);
        check(new String(cr, 3, 5).equals("hello") && cst.Get_count(MPI.CHAR) == 5, "Send / Recv at offsets");
        ok("point-to-point");
    }

    static void requests() throws MPIException {
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        // persistent requests, started three times
        IntBuffer sb = MPI.newIntBuffer(1), rb = MPI.newIntBuffer(1);
        Prequest ps = world.sendInit(sb, 1, MPI.INT, next, 20), pr = world.recvInit(rb, 1, MPI.INT, prev, 20);
        for (int i = 0; i < 3; i++) {
            sb.put(0, rank * 100 + i);
            Prequest.startAll(new Prequest[] {pr, ps});
            Request.waitAll(new Request[] {pr, ps});
            check(rb.get(0) == prev * 100 + i, "persistent round " + i);
        }
        // waitAny: completed requests become inactive; none active gives UNDEFINED
        int[][] bufs = new int[3][1];
        Request[] rs = new Request[3];
        for (int i = 0; i < 3; i++) {
            rs[i] = world.Irecv(bufs[i], 0, 1, MPI.INT, prev, 30 + i);
        }
        for (int i = 2; i >= 0; i--) {
            world.Send(new int[] {i}, 0, 1, MPI.INT, next, 30 + i);
        }
        boolean[] seen = new boolean[3];
        for (int k = 0; k < 3; k++) {
            int i = Request.waitAny(rs);
            check(i >= 0 && i < 3 && !seen[i] && bufs[i][0] == i && rs[i].isNull(), "waitAny " + i);
            seen[i] = true;
        }
        check(Request.waitAny(rs) == MPI.UNDEFINED, "waitAny of inactive requests");
        // mpiJava's Waitany / Waitall / Testall
        Request[] mj = {world.Irecv(bufs[0], 0, 1, MPI.INT, prev, 39), world.Isend(new int[] {5}, 0, 1, MPI.INT, next, 39)};
        Status[] all = Request.Waitall(mj);
        check(all.length == 2 && all[0].source == prev && bufs[0][0] == 5, "Waitall");
        check(Request.Testall(mj) != null, "Testall of inactive requests");
        // waitSome
        Request[] some = {world.iRecv(IntBuffer.wrap(bufs[1]), 1, MPI.INT, prev, 41), world.iSend(IntBuffer.wrap(new int[] {6}), 1, MPI.INT, next, 41)};
        int done = 0;
        while (done < 2) {
            done += Request.waitSome(some).length;
        }
        check(bufs[1][0] == 6, "waitSome");
        // cancel a receive nobody sends to
        Request c = world.iRecv(IntBuffer.wrap(new int[1]), 1, MPI.INT, prev, 999);
        c.cancel();
        check(c.waitStatus().isCancelled(), "cancelled receive");
        ok("requests");
    }

    static void specialBuffers() throws MPIException {
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        boolean[] bs = {true, false, rank % 2 == 0, true}, br = new boolean[5];
        Request r = world.Irecv(br, 1, 4, MPI.BOOLEAN, prev, 50);
        world.Send(bs, 0, 4, MPI.BOOLEAN, next, 50);
        r.Wait();
        check(br[1] && !br[2] && br[3] == (prev % 2 == 0) && br[4] && !br[0], "booleans: " + Arrays.toString(br));
        // objects: a non-blocking receive before the send, then Waitany among it and a plain request
        Object[] objs = {"from " + rank, new int[] {rank}, null}, got = new Object[3];
        Request ro = world.Irecv(got, 0, 3, MPI.OBJECT, MPI.ANY_SOURCE, 51);
        int[] plain = new int[1];
        Request rp = world.Irecv(plain, 0, 1, MPI.INT, prev, 52);
        Request so = world.Isend(objs, 0, 3, MPI.OBJECT, next, 51);
        world.Send(new int[] {rank}, 0, 1, MPI.INT, next, 52);
        Status[] st = Request.Waitall(new Request[] {ro, rp, so});
        check(("from " + prev).equals(got[0]) && ((int[]) got[1])[0] == prev && got[2] == null && st[0].source == prev && st[0].Get_count(MPI.OBJECT) == 3,
                "objects: " + Arrays.toString(got));
        // Struct data in a byte buffer: a record of an int and two doubles
        Rec recType = new Rec();
        ByteBuffer b = MPI.newByteBuffer(recType.getExtent() * 2), in = MPI.newByteBuffer(recType.getExtent() * 2);
        for (int i = 0; i < 2; i++) {
            Rec.Data x = recType.getData(b, i);
            x.id(rank * 10 + i);
            x.xy(i, 0.5);
        }
        world.sendRecv(b, 2, recType.getType(), next, 53, in, 2, recType.getType(), prev, 53);
        Rec.Data y = recType.getData(in, 1);
        check(y.id() == prev * 10 + 1 && y.x() == 1 && y.y() == 0.5, "struct data");
        ok("booleans, objects and structs");
    }

    /** An int and two doubles, aligned as C would. */
    static final class Rec extends Struct {
        private final int id = addInt();
        private final int xy = setOffset(8).addDouble(2);

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            int id() {
                return getInt(id);
            }

            void id(int v) {
                putInt(id, v);
            }

            double x() {
                return getDouble(xy, 0);
            }

            double y() {
                return getDouble(xy, 1);
            }

            void xy(double x, double y) {
                putDouble(xy, 0, x);
                putDouble(xy, 1, y);
            }
        }
    }

    static void collectives() throws MPIException {
        int[] b = {rank == 1 % size ? 77 : 0};
        world.bcast(b, 1, MPI.INT, 1 % size);
        check(b[0] == 77, "bcast");
        // gather in place at the root, scatter back
        int[] g = new int[2 * size];
        g[0] = -1;
        int[] mine = {rank, rank * rank};
        if (rank == 0) {
            g[0] = 0;
            g[1] = 0;
            world.gather(g, 2, MPI.INT, 0);
        } else {
            world.gather(mine, 2, MPI.INT, 0);
        }
        if (rank == 0) {
            for (int i = 0; i < size; i++) {
                check(g[2 * i] == i && g[2 * i + 1] == i * i, "gather in place");
            }
        }
        int[] sc = new int[2];
        world.scatter(g, 2, MPI.INT, sc, 2, MPI.INT, 0);
        check(sc[0] == rank && sc[1] == rank * rank, "scatter");
        // allGather, allToAll, allToAllv
        long[] ag = new long[size];
        world.allGather(new long[] {rank + 100L}, 1, MPI.LONG, ag, 1, MPI.LONG);
        for (int i = 0; i < size; i++) {
            check(ag[i] == i + 100L, "allGather");
        }
        int[] a2a = new int[size], got = new int[size];
        for (int i = 0; i < size; i++) {
            a2a[i] = rank * 1000 + i;
        }
        world.allToAll(a2a, 1, MPI.INT, got, 1, MPI.INT);
        for (int i = 0; i < size; i++) {
            check(got[i] == i * 1000 + rank, "allToAll");
        }
        int[] counts = new int[size], displs = new int[size];
        int total = 0;
        for (int i = 0; i < size; i++) {
            counts[i] = i + 1;
            displs[i] = total;
            total += i + 1;
        }
        int[] vs = new int[total];
        Arrays.fill(vs, rank);
        int[] rcounts = new int[size], rdispls = new int[size];
        for (int i = 0; i < size; i++) {
            rcounts[i] = rank + 1;
            rdispls[i] = i * (rank + 1);
        }
        int[] vr = new int[size * (rank + 1)];
        world.allToAllv(vs, counts, displs, MPI.INT, vr, rcounts, rdispls, MPI.INT);
        for (int i = 0; i < vr.length; i++) {
            check(vr[i] == i / (rank + 1), "allToAllv");
        }
        // allToAllw: byte displacements, a type per peer; arrays (Open MPI 5) and buffers (4.1)
        int[] wCounts = new int[size], wDispls = new int[size];
        Datatype[] wTypes = new Datatype[size];
        int[] ws = new int[size], wr = new int[size];
        IntBuffer wsb = MPI.newIntBuffer(size), wrb = MPI.newIntBuffer(size);
        for (int i = 0; i < size; i++) {
            wCounts[i] = 1;
            wDispls[i] = 4 * i;
            wTypes[i] = MPI.INT;
            ws[i] = rank * 100 + i;
            wsb.put(i, rank * 100 + i);
        }
        world.allToAllw(ws, wCounts, wDispls, wTypes, wr, wCounts, wDispls, wTypes);
        world.allToAllw(wsb, wCounts, wDispls, wTypes, wrb, wCounts, wDispls, wTypes);
        for (int i = 0; i < size; i++) {
            check(wr[i] == i * 100 + rank && wrb.get(i) == i * 100 + rank, "allToAllw");
        }
        // reductions: in place, scan, exScan, reduceScatterBlock
        double[] sum = {rank + 1.0};
        if (rank == 0) {
            world.reduce(sum, 1, MPI.DOUBLE, MPI.SUM, 0);
            check(sum[0] == size * (size + 1) / 2.0, "reduce in place");
        } else {
            world.reduce(sum, 1, MPI.DOUBLE, MPI.SUM, 0);
        }
        int[] mx = {rank};
        world.allReduce(mx, 1, MPI.INT, MPI.MAX);
        check(mx[0] == size - 1, "allReduce in place");
        int[] sc1 = new int[1], ex = {-5};
        world.scan(new int[] {rank + 1}, sc1, 1, MPI.INT, MPI.SUM);
        world.exScan(new int[] {rank + 1}, ex, 1, MPI.INT, MPI.SUM);
        check(sc1[0] == (rank + 1) * (rank + 2) / 2 && (rank == 0 ? ex[0] == -5 : ex[0] == rank * (rank + 1) / 2), "scan and exScan");
        int[] rsIn = new int[2 * size], rsOut = new int[2];
        Arrays.fill(rsIn, 1);
        world.reduceScatterBlock(rsIn, rsOut, 2, MPI.INT, MPI.SUM);
        check(rsOut[0] == size && rsOut[1] == size, "reduceScatterBlock");
        // non-blocking, on direct buffers
        DoubleBuffer in = MPI.newDoubleBuffer(3), out = MPI.newDoubleBuffer(3);
        in.put(0, rank).put(1, 1).put(2, -rank);
        Request r = world.iAllReduce(in, out, 3, MPI.DOUBLE, MPI.SUM);
        Request bar = world.iBarrier();
        r.waitFor();
        bar.waitFor();
        check(out.get(0) == size * (size - 1) / 2.0 && out.get(1) == size && out.get(2) == -out.get(0), "iAllReduce");
        ok("collectives (Open MPI names)");
    }

    static void collectivesMpiJava() throws MPIException {
        int[] counts = new int[size], displs = new int[size];
        int total = 0;
        for (int i = 0; i < size; i++) {
            counts[i] = i % 3;
            displs[i] = total + 1; // a gap before each block
            total += i % 3 + 1;
        }
        float[] gv = new float[total + 2];
        float[] mine = {rank, rank + 0.5f};
        world.Gatherv(mine, 0, rank % 3, MPI.FLOAT, gv, 1, counts, displs, MPI.FLOAT, 0);
        if (rank == 0) {
            for (int i = 0; i < size; i++) {
                for (int k = 0; k < i % 3; k++) {
                    check(gv[1 + displs[i] + k] == i + 0.5f * k, "Gatherv");
                }
            }
        }
        float[] back = new float[3];
        world.Scatterv(gv, 1, counts, displs, MPI.FLOAT, back, 1, rank % 3, MPI.FLOAT, 0);
        for (int k = 0; k < rank % 3; k++) {
            check(back[1 + k] == rank + 0.5f * k, "Scatterv");
        }
        float[] agv = new float[total + 2];
        world.Allgatherv(mine, 0, rank % 3, MPI.FLOAT, agv, 1, counts, displs, MPI.FLOAT);
        check(Arrays.equals(rank == 0 ? gv : agv, agv), "Allgatherv");
        int[] a2 = new int[size], r2 = new int[size];
        Arrays.fill(a2, rank);
        world.Alltoall(a2, 0, 1, MPI.INT, r2, 0, 1, MPI.INT);
        for (int i = 0; i < size; i++) {
            check(r2[i] == i, "Alltoall");
        }
        int[] rsc = new int[size];
        for (int i = 0; i < size; i++) {
            rsc[i] = 1;
        }
        int[] rsIn = new int[size], rsOut = new int[1];
        Arrays.fill(rsIn, rank);
        world.Reduce_scatter(rsIn, 0, rsOut, 0, rsc, MPI.INT, MPI.SUM);
        check(rsOut[0] == size * (size - 1) / 2, "Reduce_scatter");
        short[] s = {(short) (rank + 1)}, sr = new short[1];
        world.Scan(s, 0, sr, 0, 1, MPI.SHORT, MPI.PROD);
        long f = 1;
        for (int i = 1; i <= rank + 1; i++) {
            f *= i;
        }
        check(sr[0] == (short) f, "Scan with PROD");
        byte[] bx = {(byte) (1 << (rank % 8))}, bo = new byte[1];
        world.Allreduce(bx, 0, bo, 0, 1, MPI.BYTE, MPI.BOR);
        check(bo[0] == (byte) ((1 << Math.min(size, 8)) - 1), "Allreduce with BOR");
        world.Barrier();
        ok("collectives (mpiJava names)");
    }

    static void operations() throws MPIException {
        // a non-commutative operation, applied in rank order: the product of 2x2 matrices, M(0) M(1) ... M(n-1)
        Op product = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                long[] a = (long[]) in, b = (long[]) inOut;
                for (int i = 0; i < count; i++) {
                    int o = 4 * i;
                    long c0 = a[o] * b[o] + a[o + 1] * b[o + 2], c1 = a[o] * b[o + 1] + a[o + 1] * b[o + 3];
                    long c2 = a[o + 2] * b[o] + a[o + 3] * b[o + 2], c3 = a[o + 2] * b[o + 1] + a[o + 3] * b[o + 3];
                    b[o] = c0;
                    b[o + 1] = c1;
                    b[o + 2] = c2;
                    b[o + 3] = c3;
                }
            }
        }, false);
        Datatype matrix = Datatype.createContiguous(4, MPI.LONG);
        long[] m = {rank + 1, 1, 1, 0}, r = new long[4], e = {1, 0, 0, 1};
        world.allReduce(m, r, 1, matrix, product);
        for (int i = 0; i < size; i++) {
            long[] x = {i + 1, 1, 1, 0};
            e = new long[] {e[0] * x[0] + e[1] * x[2], e[0] * x[1] + e[1] * x[3], e[2] * x[0] + e[3] * x[2], e[2] * x[1] + e[3] * x[3]};
        }
        check(Arrays.equals(r, e), "non-commutative user op: " + Arrays.toString(r) + " for " + Arrays.toString(e));
        Op mpj = new Op(new User_function() {
            @Override
            public void Call(Object in, int io, Object inOut, int ioo, int count, Datatype type) {
                int[] a = (int[]) in, b = (int[]) inOut;
                for (int i = 0; i < count; i++) {
                    b[ioo + i] = Math.max(Math.abs(a[io + i]), Math.abs(b[ioo + i]));
                }
            }
        }, true);
        int[] v = {rank % 2 == 0 ? -rank : rank}, w = new int[1];
        world.Allreduce(v, 0, w, 0, 1, MPI.INT, mpj);
        check(w[0] == size - 1, "mpiJava user op");
        // MINLOC on double-int pairs in a byte buffer, MAXLOC on int pairs in an array
        ByteBuffer in = MPI.newByteBuffer(MPI.doubleInt.getExtent()), out = MPI.newByteBuffer(MPI.doubleInt.getExtent());
        DoubleInt.Data di = MPI.doubleInt.getData(in);
        di.putValue(Math.abs(rank - 1.25));
        di.putIndex(rank);
        world.allReduce(in, out, 1, MPI.DOUBLE_INT, MPI.MINLOC);
        DoubleInt.Data res = MPI.doubleInt.getData(out);
        check(res.getIndex() == Math.min(1, size - 1), "MINLOC: " + res.getIndex());
        int[] pair = {rank % 2, rank}, best = new int[2];
        world.allReduce(pair, best, 1, MPI.INT2, MPI.MAXLOC);
        check(best[0] == (size > 1 ? 1 : 0) && best[1] == (size > 1 ? 1 : 0), "MAXLOC picks the lowest index of the max: " + Arrays.toString(best));
        // a local reduction
        int[] x = {1, 2}, y = {3, 4};
        Comm.reduceLocal(x, y, 2, MPI.INT, MPI.PROD);
        check(y[0] == 3 && y[1] == 8, "reduceLocal");
        ok("operations");
    }

    static void groupsAndCommunicators() throws MPIException {
        Group all = world.getGroup();
        check(all.getSize() == size && all.getRank() == rank, "world group");
        Group evens = all.rangeIncl(new int[][] {{0, size - 1, 2}}), odds = all.excl(evens.getSize() == 0 ? new int[0] : everyOther(size, 0));
        check(Group.union(evens, odds).getSize() == size && Group.intersection(evens, odds).getSize() == 0, "union, intersection");
        int[] t = Group.translateRanks(evens, new int[] {0}, all);
        check(t[0] == 0 && Group.compare(all, all) == MPI.IDENT && Group.compare(evens, all) == (size == 1 ? MPI.IDENT : MPI.UNEQUAL), "translate, compare");
        Intracomm ev = world.create(evens);
        check(rank % 2 == 0 ? ev != null && ev.getSize() == (size + 1) / 2 : ev == null, "create");
        Intracomm sp = world.split(rank % 2, -rank);
        int[] sum = {rank};
        sp.allReduce(sum, 1, MPI.INT, MPI.SUM);
        int expect = 0;
        for (int i = rank % 2; i < size; i += 2) {
            expect += i;
        }
        check(sum[0] == expect && sp.getRank() == sp.getSize() - 1 - rank / 2, "split by key");
        Intracomm node = world.splitType(Comm.TYPE_SHARED, rank, MPI.INFO_NULL);
        check(node.getSize() >= 1 && node.getSize() <= size, "splitType");
        Intracomm dup = world.dup();
        check(Comm.compare(dup, world) == MPI.CONGRUENT && Comm.compare(world, world) == MPI.IDENT, "dup compares congruent");
        Intracomm c2 = (Intracomm) world.clone();
        c2.setName("mine");
        check(c2.getName().equals("mine") && c2.getSize() == size, "clone and name");
        check((Integer) world.getAttr(MPI.TAG_UB) >= 32767, "TAG_UB");
        int key = Comm.createKeyval();
        dup.setAttr(key, "value");
        check("value".equals(dup.getAttr(key)), "attribute");
        if (ev != null) {
            ev.free();
        }
        sp.free();
        node.free();
        dup.free();
        c2.Free();
        check(dup.isNull(), "freed");
        Info info = new Info();
        info.set("k", "v");
        check(info.get("k").equals("v") && info.size() == 1 && info.getKey(0).equals("k"), "info");
        ok("groups and communicators");
    }

    static int[] everyOther(int n, int first) {
        int[] r = new int[(n - first + 1) / 2];
        for (int i = 0; i < r.length; i++) {
            r[i] = first + 2 * i;
        }
        return r;
    }

    static void topologies() throws MPIException {
        int[] dims = new int[2];
        CartComm.createDims(size, dims);
        check(dims[0] * dims[1] == size && dims[0] >= dims[1], "createDims " + Arrays.toString(dims));
        CartComm cart = world.createCart(dims, new boolean[] {true, false}, false);
        int[] c = cart.getCoords(cart.getRank());
        check(cart.getRank(c) == cart.getRank() && cart.getTopology() == MPI.CART && cart.getTopo().getDim(0) == dims[0], "coords");
        ShiftParms sh = cart.shift(0, 1);
        check(sh.getRankDest() == cart.getRank(new int[] {(c[0] + 1) % dims[0], c[1]}), "periodic shift");
        ShiftParms edge = cart.shift(1, 1);
        check(c[1] == dims[1] - 1 ? edge.getRankDest() == MPI.PROC_NULL : edge.getRankDest() != MPI.PROC_NULL, "edge shift");
        CartComm row = cart.sub(new boolean[] {false, true});
        check(row.getSize() == dims[1], "sub-grid");
        // neighbourhood all-gather on the grid: for each dimension, the lower then the upper neighbour
        int[] got = new int[4];
        Arrays.fill(got, -9);
        cart.neighborAllGather(new int[] {cart.getRank()}, 1, MPI.INT, got, 1, MPI.INT);
        int[] up = {(c[0] + dims[0] - 1) % dims[0], c[1]}, down = {(c[0] + 1) % dims[0], c[1]};
        check(got[0] == cart.getRank(up) && got[1] == cart.getRank(down), "neighbour all-gather, periodic dimension: " + Arrays.toString(got));
        check(c[1] == 0 ? got[2] == -9 : got[2] == cart.getRank(new int[] {c[0], c[1] - 1}), "neighbour all-gather, edge");
        Cartcomm mj = world.Create_cart(new int[] {size}, new boolean[] {true}, false);
        check(mj.Coords(mj.Rank())[0] == rank && mj.Shift(0, 1).rank_dest == (rank + 1) % size, "Cartcomm");
        // a ring as a graph, and as a distributed graph where each rank names the edge to its right
        int[] index = new int[size], edges = new int[2 * size];
        for (int i = 0; i < size; i++) {
            index[i] = 2 * (i + 1);
            edges[2 * i] = (i + size - 1) % size;
            edges[2 * i + 1] = (i + 1) % size;
        }
        GraphComm ring = world.createGraph(index, edges, false);
        check(Arrays.equals(ring.getNeighbors(rank), new int[] {(rank + size - 1) % size, (rank + 1) % size}) && ring.getDims().getEdgeCount() == 2 * size, "graph");
        GraphComm dist = world.createDistGraph(new int[] {rank}, new int[] {1}, new int[] {(rank + 1) % size}, MPI.INFO_NULL, false);
        DistGraphNeighbors nb = dist.getDistGraphNeighbors();
        check(nb.getInDegree() == 1 && nb.getSource(0) == (rank + size - 1) % size && nb.getDestination(0) == (rank + 1) % size, "distributed graph");
        long[] a2a = new long[1];
        dist.neighborAllToAll(new long[] {rank * 3L}, 1, MPI.LONG, a2a, 1, MPI.LONG);
        check(a2a[0] == ((rank + size - 1) % size) * 3L, "neighbour all-to-all");
        cart.free();
        row.free();
        ring.free();
        dist.free();
        ok("topologies");
    }

    static void packing() throws MPIException {
        byte[] packed = new byte[world.packSize(3, MPI.INT) + world.packSize(2, MPI.DOUBLE)];
        int at = world.pack(new int[] {1, 2, 3}, 3, MPI.INT, packed, 0);
        at = world.pack(new double[] {0.5, rank}, 2, MPI.DOUBLE, packed, at);
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        byte[] in = new byte[packed.length];
        world.sendRecv(packed, at, MPI.PACKED, next, 60, in, in.length, MPI.PACKED, prev, 60);
        int[] ints = new int[3];
        double[] ds = new double[2];
        int pos = world.unpack(in, 0, ints, 3, MPI.INT);
        world.unpack(in, pos, ds, 2, MPI.DOUBLE);
        check(ints[2] == 3 && ds[1] == prev, "pack / unpack");
        ok("packing");
    }

    static void windows() throws MPIException {
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        // fence: every rank puts its rank into the next one's window, gets the previous one's
        IntBuffer mem = MPI.newIntBuffer(4);
        Win win = new Win(mem, 4, 1, MPI.INFO_NULL, world);
        IntBuffer src = MPI.newIntBuffer(1).put(0, rank), dst = MPI.newIntBuffer(1);
        win.fence(0);
        win.put(src, 1, MPI.INT, next, 1, 1, MPI.INT);
        win.fence(0);
        check(mem.get(1) == prev, "put in a fence epoch");
        win.get(dst, 1, MPI.INT, prev, 1, 1, MPI.INT);
        win.fence(0);
        check(dst.get(0) == (prev + size - 1) % size, "get in a fence epoch");
        // post / start / complete / wait with the neighbours
        Group g = world.getGroup();
        Group to = g.incl(new int[] {next}), from = g.incl(new int[] {prev});
        win.post(from, 0);
        win.start(to, 0);
        win.accumulate(src, 1, MPI.INT, next, 2, 1, MPI.INT, MPI.SUM);
        win.complete();
        win.waitFor();
        check(mem.get(2) == prev, "accumulate in a post-start epoch");
        // passive target: everybody adds to rank 0's counter; fetch-and-op, compare-and-swap, getAccumulate, request forms
        IntBuffer one = MPI.newIntBuffer(1).put(0, 1), old = MPI.newIntBuffer(1);
        world.barrier();
        win.lock(MPI.LOCK_SHARED, 0, 0);
        win.fetchAndOp(one, old, MPI.INT, 0, 3, MPI.SUM);
        win.unlock(0);
        world.barrier();
        if (rank == 0) {
            check(mem.get(3) == size, "fetch-and-op from every rank");
        }
        win.lockAll(0);
        Request rq = win.rGet(dst, 1, MPI.INT, 0, 3, 1, MPI.INT);
        rq.waitFor();
        win.flushAll();
        check(dst.get(0) == size, "rGet under lockAll");
        win.unlockAll();
        world.barrier();
        IntBuffer cmp = MPI.newIntBuffer(1).put(0, size), swap = MPI.newIntBuffer(1).put(0, -1), res = MPI.newIntBuffer(1);
        win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
        win.compareAndSwap(swap, cmp, res, MPI.INT, 0, 3);
        win.unlock(0);
        world.barrier();
        if (rank == 0) {
            check(mem.get(3) == -1, "one compare-and-swap won");
        }
        check(res.get(0) == size || res.get(0) == -1, "compare-and-swap's result");
        win.free();
        // a dynamic window: rank 0 attaches memory, the others read it by its address
        Win dyn = new Win(MPI.INFO_NULL, world);
        LongBuffer att = MPI.newLongBuffer(2);
        long[] addr = {0};
        if (rank == 0) {
            att.put(0, 42).put(1, 43);
            dyn.attach(att, 2);
            addr[0] = Win.getAddress(att);
        }
        world.bcast(addr, 1, MPI.LONG, 0);
        LongBuffer val = MPI.newLongBuffer(1);
        dyn.lock(MPI.LOCK_SHARED, 0, 0);
        dyn.get(val, 1, MPI.LONG, 0, addr[0] + 8, 1, MPI.LONG); // an address needs Ferry's long displacement
        dyn.unlock(0);
        check(val.get(0) == 43, "dynamic window");
        world.barrier();
        if (rank == 0) {
            dyn.detach(att);
        }
        dyn.free();
        ok("windows");
    }

    /** The int at {@code i} of segment {@code m}. */
    static int at(MemorySegment m, long i) {
        return m.getAtIndex(ValueLayout.JAVA_INT, i);
    }

    static MemorySegment ints(Arena a, int... v) {
        return a.allocateFrom(ValueLayout.JAVA_INT, v);
    }

    /**
     * MPI-4's large-count calls (Ferry's extensions): each long form on memory segments, against
     * what its int form gives; a window over a segment; MPI.BOOLEAN refused by name.
     */
    static void largeCounts() throws MPIException {
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        try (Arena a = Arena.ofShared()) {
            // point-to-point: synchronous, buffered, nonblocking synchronous
            MemorySegment in = a.allocate(16);
            Request r = world.iRecv(in, 4L, MPI.INT, prev, 20);
            world.sSend(ints(a, rank, 1, 2, 3), 4L, MPI.INT, next, 20);
            check(r.waitStatus().getCountLong(MPI.INT) == 4 && at(in, 0) == prev, "large-count sSend");
            MPI.attachBuffer(new byte[64 + MPI.BSEND_OVERHEAD]);
            world.bSend(ints(a, rank * 2), 1L, MPI.INT, next, 21);
            world.recv(in, 1L, MPI.INT, prev, 21);
            MPI.detachBuffer();
            check(at(in, 0) == prev * 2, "large-count bSend");
            Request ss = world.iSsend(ints(a, rank * 3), 1L, MPI.INT, next, 22);
            world.recv(in, 1L, MPI.INT, prev, 22);
            ss.waitFor();
            check(at(in, 0) == prev * 3, "large-count iSsend");
            Status sr = world.sendRecv(ints(a, rank * 4), 1L, MPI.INT, next, 24, in, 1L, MPI.INT, prev, 24);
            check(at(in, 0) == prev * 4 && sr.getCountLong(MPI.INT) == 1, "large-count sendRecv");
            MemorySegment token = ints(a, rank);
            world.sendRecvReplace(token, 1L, MPI.INT, next, 25, prev, 25);
            check(at(token, 0) == prev, "large-count sendRecvReplace");
            MemorySegment packed = a.allocate(64);
            long end = world.pack(ints(a, 7, 8, 9), 3L, MPI.INT, packed, 4L);
            MemorySegment unpacked = a.allocate(12);
            check(end == 16 && world.unpack(packed, 4L, unpacked, 3L, MPI.INT) == 16 && at(unpacked, 2) == 9, "large-count pack and unpack");
            MemorySegment acc = ints(a, 1, 2);
            Comm.reduceLocal(ints(a, 10, 20), acc, 2L, MPI.INT, MPI.SUM);
            check(at(acc, 0) == 11 && at(acc, 1) == 22, "large-count reduceLocal");

            // collectives: the root's, everyone's, and every member's block
            MemorySegment b = rank == 0 ? ints(a, 7, 8, 9) : a.allocate(12);
            world.bcast(b, 3L, MPI.INT, 0);
            check(at(b, 2) == 9, "large-count bcast");
            MemorySegment ib = rank == 0 ? ints(a, 5) : a.allocate(4);
            world.iBcast(ib, 1L, MPI.INT, 0).waitFor();
            check(at(ib, 0) == 5, "large-count iBcast");
            int sum = size * (size - 1) / 2;
            MemorySegment all = a.allocate(8);
            world.allReduce(ints(a, rank, 1), all, 2L, MPI.INT, MPI.SUM);
            check(at(all, 0) == sum && at(all, 1) == size, "large-count allReduce");
            world.iAllReduce(all, 2L, MPI.INT, MPI.MAX).waitFor();
            check(at(all, 0) == sum, "large-count iAllReduce in place");
            MemorySegment red = a.allocate(4);
            world.reduce(ints(a, rank + 1), red, 1L, MPI.INT, MPI.PROD, 0);
            int fact = 1;
            for (int i = 1; i <= size; i++) {
                fact *= i;
            }
            check(rank != 0 || at(red, 0) == fact, "large-count reduce");
            world.scan(ints(a, rank), red, 1L, MPI.INT, MPI.SUM);
            check(at(red, 0) == rank * (rank + 1) / 2, "large-count scan");
            world.exScan(ints(a, 1), red, 1L, MPI.INT, MPI.SUM);
            check(rank == 0 || at(red, 0) == rank, "large-count exScan");
            int[] ones = new int[size];
            Arrays.fill(ones, rank);
            world.reduceScatterBlock(ones, red, 1L, MPI.INT, MPI.SUM);
            check(at(red, 0) == sum, "large-count reduceScatterBlock");
            MemorySegment inPlace = a.allocate(4L * size);
            inPlace.fill((byte) 0);
            inPlace.setAtIndex(ValueLayout.JAVA_INT, rank, rank + 1);
            world.allGather(inPlace, 1L, MPI.INT);
            world.allReduce(inPlace, (long) size, MPI.INT, MPI.SUM);
            check(at(inPlace, size - 1) == size * size, "large-count allGather and allReduce in place");
            long[] oneEach = new long[size], strides = new long[size];
            Arrays.fill(oneEach, 1);
            Arrays.setAll(strides, i -> 2L * i); // a gap of one int between blocks
            world.reduceScatter(ones, red, oneEach, MPI.INT, MPI.MAX);
            check(at(red, 0) == size - 1, "large-count reduceScatter");
            MemorySegment gathered = a.allocate(8L * size);
            world.allGatherv(ints(a, rank * 10), 1L, MPI.INT, gathered, oneEach, strides, MPI.INT);
            check(at(gathered, 2L * (size - 1)) == (size - 1) * 10, "large-count allGatherv");
            world.allGather(ints(a, rank * 11), 1L, MPI.INT, gathered, 1L, MPI.INT);
            check(at(gathered, size - 1) == (size - 1) * 11, "large-count allGather");
            world.gather(ints(a, rank * 12), 1L, MPI.INT, rank == 0 ? gathered : null, 1L, MPI.INT, 0);
            check(rank != 0 || at(gathered, size - 1) == (size - 1) * 12, "large-count gather");
            world.gatherv(ints(a, rank * 13), 1L, MPI.INT, rank == 0 ? gathered : null, oneEach, strides, MPI.INT, 0);
            check(rank != 0 || at(gathered, 2L * (size - 1)) == (size - 1) * 13, "large-count gatherv");
            MemorySegment from = a.allocate(8L * size);
            for (int i = 0; i < size; i++) {
                from.setAtIndex(ValueLayout.JAVA_INT, 2L * i, 100 + i);
            }
            world.scatterv(from, oneEach, strides, MPI.INT, red, 1L, MPI.INT, 0);
            check(at(red, 0) == 100 + rank, "large-count scatterv");
            world.scatter(from, 2L, MPI.INT, in, 2L, MPI.INT, 0);
            check(at(in, 0) == 100 + rank, "large-count scatter");
            MemorySegment out = a.allocate(4L * size), got = a.allocate(4L * size);
            for (int i = 0; i < size; i++) {
                out.setAtIndex(ValueLayout.JAVA_INT, i, rank * 100 + i);
            }
            world.allToAll(out, 1L, MPI.INT, got, 1L, MPI.INT);
            check(at(got, prev) == prev * 100 + rank, "large-count allToAll");
            long[] unit = new long[size], byteStrides = new long[size];
            Arrays.fill(unit, 1);
            Arrays.setAll(byteStrides, i -> 4L * i);
            Arrays.setAll(strides, i -> i); // the v forms' displacements count extents, the w form's bytes
            world.iAllToAllv(out, unit, strides, MPI.INT, got, unit, strides, MPI.INT).waitFor();
            check(at(got, next) == next * 100 + rank, "large-count iAllToAllv");
            world.allToAllv(out, unit, strides, MPI.INT, got, unit, strides, MPI.INT);
            check(at(got, next) == next * 100 + rank, "large-count allToAllv");
            Datatype[] types = new Datatype[size];
            Arrays.fill(types, MPI.INT);
            world.allToAllw(out, unit, byteStrides, types, got, unit, byteStrides, types);
            check(at(got, prev) == prev * 100 + rank, "large-count allToAllw");

            // a window over a segment, and the long origin and target counts
            MemorySegment mem = a.allocate(16);
            Win win = new Win(mem, mem.byteSize(), 4, MPI.INFO_NULL, world);
            win.fence(0);
            win.put(ints(a, rank, rank + 1), 2L, MPI.INT, next, 0L, 2L, MPI.INT);
            win.fence(0);
            check(at(mem, 0) == prev && at(mem, 1) == prev + 1, "large-count put");
            MemorySegment back = a.allocate(8);
            win.get(back, 2L, MPI.INT, next, 0L, 2L, MPI.INT);
            win.accumulate(ints(a, 1), 1L, MPI.INT, next, 2L, 1L, MPI.INT, MPI.SUM);
            win.fence(0);
            check(at(back, 0) == rank && at(mem, 2) == 1, "large-count get and accumulate: got " + at(back, 0) + " (" + rank
                    + " expected) from rank " + next + "; " + at(mem, 2) + " (1 expected) accumulated by rank " + prev);
            world.barrier(); // the others' passive-target calls below must not change this rank's memory while it reads it
            win.lockAll(0);
            MemorySegment old = a.allocate(4);
            win.getAccumulate(ints(a, 1), 1L, MPI.INT, old, 1L, MPI.INT, next, 3L, 1L, MPI.INT, MPI.SUM);
            win.rPut(ints(a, 9), 1L, MPI.INT, next, 1L, 1L, MPI.INT).waitFor();
            win.rAccumulate(ints(a, 2), 1L, MPI.INT, next, 2L, 1L, MPI.INT, MPI.SUM).waitFor();
            win.flushAll();
            win.rGet(back, 2L, MPI.INT, next, 1L, 2L, MPI.INT).waitFor();
            MemorySegment old2 = a.allocate(4);
            win.rGetAccumulate(null, 0L, MPI.INT, old2, 1L, MPI.INT, next, 3L, 1L, MPI.INT, MPI.NO_OP).waitFor();
            win.unlockAll();
            check(at(old, 0) == 0 && at(back, 0) == 9 && at(back, 1) == 3 && at(old2, 0) == 1, "large-count passive-target calls");
            win.free();

            Intracomm c = world.dup();
            c.setErrhandler(MPI.ERRORS_RETURN);
            try {
                c.send(new boolean[4], 4L, MPI.BOOLEAN, next, 23);
                check(false, "a long-count send of booleans was accepted");
            } catch (MPIException e) {
                check(e.getErrorClass() == MPI.ERR_TYPE && e.getMessage().contains("int forms"), "booleans refused: " + e.getMessage());
            }
            c.free();
        }
        ok("large counts");
    }

    static void errors() throws MPIException {
        Intracomm c = world.dup();
        c.setErrhandler(MPI.ERRORS_RETURN);
        check(c.getErrhandler() == MPI.ERRORS_RETURN, "handler set");
        try {
            c.recv(new int[1], 1, MPI.INT, rank, -7);
            check(false, "a negative tag was accepted");
        } catch (MPIException e) {
            check(e.getErrorClass() == MPI.ERR_TAG && e.getMessage().contains("tag"), "bad tag: " + e.getErrorClass() + " " + e.getMessage());
        }
        try {
            c.send(new int[2], 3, MPI.INT, rank, 0);
            check(false, "a count beyond the buffer was accepted");
        } catch (MPIException e) {
            check(e.getErrorClass() == MPI.ERR_COUNT, "bad count: " + e.getErrorClass() + " " + e.getMessage());
        }
        // truncation: the status tells the real length
        c.send(new int[] {1, 2, 3}, 3, MPI.INT, rank, 70);
        try {
            c.recv(new int[2], 2, MPI.INT, rank, 70);
            check(false, "a truncated receive succeeded");
        } catch (MPIException e) {
            check(e.getErrorClass() == MPI.ERR_TRUNCATE, "truncation: " + e.getErrorClass() + " " + e.getMessage());
        }
        world.setErrhandler(MPI.ERRORS_RETURN); // errors of no communicator's go to COMM_WORLD's handler
        Datatype everyOther = Datatype.createResized(MPI.INT, 0, 8); // bytes: an int with the extent of two
        check(everyOther.getExtent() == 2 && everyOther.getSize() == 1 && everyOther.getLb() == 0, "resized bounds");
        c.send(new int[] {0, 1, 2, 3, 4, 5}, 3, everyOther, rank, 71);
        int[] evens = new int[3];
        c.recv(evens, 3, MPI.INT, rank, 71);
        check(java.util.Arrays.equals(evens, new int[] {0, 2, 4}), "resized data: " + java.util.Arrays.toString(evens));
        try {
            Datatype.createResized(MPI.INT, 0, -4);
            check(false, "a negative extent");
        } catch (MPIException e) {
            check(e.getErrorClass() == MPI.ERR_ARG, "resized: " + e.getMessage());
        }
        world.setErrhandler(MPI.ERRORS_ARE_FATAL);
        c.free();
        try {
            c.barrier();
            check(false, "a freed communicator worked");
        } catch (MPIException e) {
            check(e.getErrorClass() == MPI.ERR_COMM, "freed communicator: " + e.getMessage());
        }
        ok("errors");
    }
}
