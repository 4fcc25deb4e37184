package mpi;

import dev.ferry.Datatype;

import java.util.Arrays;

/**
 * The data movers for MPI.OBJECT (mpiJava): each block of objects is serialized, the lengths go
 * first, then the bytes by the v form of the same collective, then each block is read back. A
 * type derived from MPI.OBJECT ({@link ObjectLayout}) picks its objects out of the buffer; the v
 * forms' displacements count its extents.
 */
final class ObjectCollectives {
    private ObjectCollectives() {
    }

    static void bcast(dev.ferry.Comm c, Object[] buf, int offset, int count, ObjectLayout l, int root) {
        int[] len = new int[1];
        byte[] bytes = null;
        if (c.rank() == root) {
            bytes = ObjectCodec.write(buf, offset, count, l, "buf");
            len[0] = bytes.length;
        }
        c.bcast(len, 0, 1, Datatype.INT, root);
        if (bytes == null) {
            bytes = new byte[len[0]];
        }
        c.bcast(bytes, 0, len[0], Datatype.BYTE, root);
        if (c.rank() != root) {
            ObjectCodec.read(bytes, buf, offset, count, l, "buf");
        }
    }

    private static int[] displs(int[] lens) {
        int[] d = new int[lens.length];
        for (int i = 1; i < lens.length; i++) {
            d[i] = d[i - 1] + lens[i - 1];
        }
        return d;
    }

    /** The blocks received ({@code lens} bytes at {@code displs}), read into {@code counts[i]} objects at {@code roff + at[i]}. */
    private static void readBlocks(byte[] all, int[] lens, int[] displs, Object recvbuf, int roff, int[] counts, int[] at, ObjectLayout l) {
        Object[] out = ObjectCodec.array(recvbuf, "recvbuf");
        for (int i = 0; i < lens.length; i++) {
            ObjectCodec.read(Arrays.copyOfRange(all, displs[i], displs[i] + lens[i]), out, roff + at[i] * l.extent, counts[i], l, "recvbuf");
        }
    }

    /** {@code n} counts of {@code count}. */
    private static int[] uniform(int n, int count) {
        int[] a = new int[n];
        Arrays.fill(a, count);
        return a;
    }

    /** The displacements of {@code n} blocks of {@code count}. */
    private static int[] strides(int n, int count) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i * count;
        }
        return a;
    }

    /** Each of {@code n} blocks serialized ({@code counts[i]} objects at {@code soff + at[i]}), back to back; their lengths into {@code lens}. */
    private static byte[] writeBlocks(Object sendbuf, int soff, int[] counts, int[] at, int[] lens, ObjectLayout l) {
        Object[] in = ObjectCodec.array(sendbuf, "sendbuf");
        byte[][] blocks = new byte[lens.length][];
        int total = 0;
        for (int i = 0; i < lens.length; i++) {
            blocks[i] = ObjectCodec.write(in, soff + at[i] * l.extent, counts[i], l, "sendbuf");
            lens[i] = blocks[i].length;
            total += lens[i];
        }
        byte[] all = new byte[total];
        for (int i = 0, pos = 0; i < lens.length; pos += lens[i], i++) {
            System.arraycopy(blocks[i], 0, all, pos, lens[i]);
        }
        return all;
    }

    static void gather(dev.ferry.Comm c, Object sendbuf, int soff, int scount, ObjectLayout sl, Object recvbuf, int roff, int rcount, ObjectLayout rl,
                       int root) {
        gatherv(c, sendbuf, soff, scount, sl, recvbuf, roff, uniform(c.size(), rcount), strides(c.size(), rcount), rl, root);
    }

    static void gatherv(dev.ferry.Comm c, Object sendbuf, int soff, int scount, ObjectLayout sl, Object recvbuf, int roff, int[] rcounts,
                        int[] rdispls, ObjectLayout rl, int root) {
        byte[] mine = ObjectCodec.write(ObjectCodec.array(sendbuf, "sendbuf"), soff, scount, sl, "sendbuf");
        int n = c.size();
        int[] lens = new int[n];
        c.gather(new int[] {mine.length}, 0, 1, Datatype.INT, lens, 0, 1, Datatype.INT, root);
        int[] d = displs(lens);
        byte[] all = c.rank() == root ? new byte[d[n - 1] + lens[n - 1]] : new byte[0];
        c.gatherv(mine, 0, mine.length, Datatype.BYTE, all, 0, lens, d, Datatype.BYTE, root);
        if (c.rank() == root) {
            readBlocks(all, lens, d, recvbuf, roff, rcounts, rdispls, rl);
        }
    }

    static void scatter(dev.ferry.Comm c, Object sendbuf, int soff, int scount, ObjectLayout sl, Object recvbuf, int roff, int rcount, ObjectLayout rl,
                        int root) {
        scatterv(c, sendbuf, soff, uniform(c.size(), scount), strides(c.size(), scount), sl, recvbuf, roff, rcount, rl, root);
    }

    static void scatterv(dev.ferry.Comm c, Object sendbuf, int soff, int[] scounts, int[] sdispls, ObjectLayout sl, Object recvbuf, int roff,
                         int rcount, ObjectLayout rl, int root) {
        int n = c.size();
        int[] lens = new int[n];
        byte[] all = c.rank() == root ? writeBlocks(sendbuf, soff, scounts, sdispls, lens, sl) : new byte[0];
        int[] len = new int[1];
        c.scatter(lens, 0, 1, Datatype.INT, len, 0, 1, Datatype.INT, root);
        byte[] mine = new byte[len[0]];
        c.scatterv(all, 0, lens, displs(lens), Datatype.BYTE, mine, 0, len[0], Datatype.BYTE, root);
        ObjectCodec.read(mine, ObjectCodec.array(recvbuf, "recvbuf"), roff, rcount, rl, "recvbuf");
    }

    static void allgather(dev.ferry.Comm c, Object sendbuf, int soff, int scount, ObjectLayout sl, Object recvbuf, int roff, int rcount, ObjectLayout rl) {
        allgatherv(c, sendbuf, soff, scount, sl, recvbuf, roff, uniform(c.size(), rcount), strides(c.size(), rcount), rl);
    }

    static void allgatherv(dev.ferry.Comm c, Object sendbuf, int soff, int scount, ObjectLayout sl, Object recvbuf, int roff, int[] rcounts,
                           int[] rdispls, ObjectLayout rl) {
        byte[] mine = ObjectCodec.write(ObjectCodec.array(sendbuf, "sendbuf"), soff, scount, sl, "sendbuf");
        int n = c.size();
        int[] lens = new int[n];
        c.allgather(new int[] {mine.length}, 0, 1, Datatype.INT, lens, 0, 1, Datatype.INT);
        int[] d = displs(lens);
        byte[] all = new byte[d[n - 1] + lens[n - 1]];
        c.allgatherv(mine, 0, mine.length, Datatype.BYTE, all, 0, lens, d, Datatype.BYTE);
        readBlocks(all, lens, d, recvbuf, roff, rcounts, rdispls, rl);
    }

    static void alltoall(dev.ferry.Comm c, Object sendbuf, int soff, int scount, ObjectLayout sl, Object recvbuf, int roff, int rcount, ObjectLayout rl) {
        int n = c.size();
        alltoallv(c, sendbuf, soff, uniform(n, scount), strides(n, scount), sl, recvbuf, roff, uniform(n, rcount), strides(n, rcount), rl);
    }

    static void alltoallv(dev.ferry.Comm c, Object sendbuf, int soff, int[] scounts, int[] sdispls, ObjectLayout sl, Object recvbuf, int roff,
                          int[] rcounts, int[] rdispls, ObjectLayout rl) {
        int n = c.size();
        int[] slens = new int[n];
        byte[] out = writeBlocks(sendbuf, soff, scounts, sdispls, slens, sl);
        int[] rlens = new int[n];
        c.alltoall(slens, 0, 1, Datatype.INT, rlens, 0, 1, Datatype.INT);
        int[] rd = displs(rlens);
        byte[] all = new byte[rd[n - 1] + rlens[n - 1]];
        c.alltoallv(out, 0, slens, displs(slens), Datatype.BYTE, all, 0, rlens, rd, Datatype.BYTE);
        readBlocks(all, rlens, rd, recvbuf, roff, rcounts, rdispls, rl);
    }
}
