package mpi;

import dev.ferry.Datatype;

import java.util.Arrays;

/**
 * The data movers for MPI.OBJECT (mpiJava): each block of objects is serialized, the lengths go
 * first, then the bytes by the v form of the same collective, then each block is read back.
 */
final class ObjectCollectives {
    private ObjectCollectives() {
    }

    static void bcast(dev.ferry.Comm c, Object[] buf, int offset, int count, int root) {
        int[] len = new int[1];
        byte[] bytes = null;
        if (c.rank() == root) {
            bytes = ObjectCodec.write(buf, offset, count, "buf");
            len[0] = bytes.length;
        }
        c.bcast(len, 0, 1, Datatype.INT, root);
        if (bytes == null) {
            bytes = new byte[len[0]];
        }
        c.bcast(bytes, 0, len[0], Datatype.BYTE, root);
        if (c.rank() != root) {
            ObjectCodec.read(bytes, buf, offset, count, "buf");
        }
    }

    private static int[] displs(int[] lens) {
        int[] d = new int[lens.length];
        for (int i = 1; i < lens.length; i++) {
            d[i] = d[i - 1] + lens[i - 1];
        }
        return d;
    }

    private static void readBlocks(byte[] all, int[] lens, int[] displs, Object recvbuf, int roff, int rcount) {
        Object[] out = ObjectCodec.array(recvbuf, "recvbuf");
        for (int i = 0; i < lens.length; i++) {
            ObjectCodec.read(Arrays.copyOfRange(all, displs[i], displs[i] + lens[i]), out, roff + i * rcount, rcount, "recvbuf");
        }
    }

    static void gather(dev.ferry.Comm c, Object sendbuf, int soff, int scount, Object recvbuf, int roff, int rcount, int root) {
        byte[] mine = ObjectCodec.write(ObjectCodec.array(sendbuf, "sendbuf"), soff, scount, "sendbuf");
        int n = c.size();
        int[] lens = new int[n];
        c.gather(new int[] {mine.length}, 0, 1, Datatype.INT, lens, 0, 1, Datatype.INT, root);
        int[] d = displs(lens);
        byte[] all = c.rank() == root ? new byte[d[n - 1] + lens[n - 1]] : new byte[0];
        c.gatherv(mine, 0, mine.length, Datatype.BYTE, all, 0, lens, d, Datatype.BYTE, root);
        if (c.rank() == root) {
            readBlocks(all, lens, d, recvbuf, roff, rcount);
        }
    }

    static void scatter(dev.ferry.Comm c, Object sendbuf, int soff, int scount, Object recvbuf, int roff, int rcount, int root) {
        int n = c.size();
        int[] lens = new int[n];
        byte[] all = new byte[0];
        if (c.rank() == root) {
            Object[] in = ObjectCodec.array(sendbuf, "sendbuf");
            byte[][] blocks = new byte[n][];
            int total = 0;
            for (int i = 0; i < n; i++) {
                blocks[i] = ObjectCodec.write(in, soff + i * scount, scount, "sendbuf");
                lens[i] = blocks[i].length;
                total += lens[i];
            }
            all = new byte[total];
            for (int i = 0, at = 0; i < n; at += lens[i], i++) {
                System.arraycopy(blocks[i], 0, all, at, lens[i]);
            }
        }
        int[] len = new int[1];
        c.scatter(lens, 0, 1, Datatype.INT, len, 0, 1, Datatype.INT, root);
        byte[] mine = new byte[len[0]];
        c.scatterv(all, 0, lens, displs(lens), Datatype.BYTE, mine, 0, len[0], Datatype.BYTE, root);
        ObjectCodec.read(mine, ObjectCodec.array(recvbuf, "recvbuf"), roff, rcount, "recvbuf");
    }

    static void allgather(dev.ferry.Comm c, Object sendbuf, int soff, int scount, Object recvbuf, int roff, int rcount) {
        byte[] mine = ObjectCodec.write(ObjectCodec.array(sendbuf, "sendbuf"), soff, scount, "sendbuf");
        int n = c.size();
        int[] lens = new int[n];
        c.allgather(new int[] {mine.length}, 0, 1, Datatype.INT, lens, 0, 1, Datatype.INT);
        int[] d = displs(lens);
        byte[] all = new byte[d[n - 1] + lens[n - 1]];
        c.allgatherv(mine, 0, mine.length, Datatype.BYTE, all, 0, lens, d, Datatype.BYTE);
        readBlocks(all, lens, d, recvbuf, roff, rcount);
    }

    static void alltoall(dev.ferry.Comm c, Object sendbuf, int soff, int scount, Object recvbuf, int roff, int rcount) {
        int n = c.size();
        Object[] in = ObjectCodec.array(sendbuf, "sendbuf");
        byte[][] blocks = new byte[n][];
        int[] slens = new int[n];
        int total = 0;
        for (int i = 0; i < n; i++) {
            blocks[i] = ObjectCodec.write(in, soff + i * scount, scount, "sendbuf");
            slens[i] = blocks[i].length;
            total += slens[i];
        }
        byte[] out = new byte[total];
        int[] sd = displs(slens);
        for (int i = 0; i < n; i++) {
            System.arraycopy(blocks[i], 0, out, sd[i], slens[i]);
        }
        int[] rlens = new int[n];
        c.alltoall(slens, 0, 1, Datatype.INT, rlens, 0, 1, Datatype.INT);
        int[] rd = displs(rlens);
        byte[] all = new byte[rd[n - 1] + rlens[n - 1]];
        c.alltoallv(out, 0, slens, sd, Datatype.BYTE, all, 0, rlens, rd, Datatype.BYTE);
        readBlocks(all, rlens, rd, recvbuf, roff, rcount);
    }
}
