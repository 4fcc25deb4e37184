package mpi;

import dev.ferry.Datatype;
import dev.ferry.internal.OutOfBand;
import dev.ferry.internal.OutOfBandArrays;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The data movers for MPI.OBJECT (mpiJava): each block of objects is serialized, the lengths go
 * first, then the bytes by the v form of the same collective, then each block is read back. A
 * type derived from MPI.OBJECT ({@link ObjectLayout}) picks its objects out of the buffer; the v
 * forms' displacements count its extents.
 *
 * <p>The primitive arrays of 64 KiB and more in a block stay out of its bytes ({@link OutOfBand},
 * as point-to-point does), so that blocks past 2 GiB go whole: the sender of a block sends them
 * detached (copied once, whatever the number of receivers) to each receiver of the block, on the
 * communicator's object lane, a duplicate made at its first object collective so that these
 * messages meet no receive of the program's; a receiver takes them from the block's sender as the
 * reading of the block comes to their places. Every send is detached, so no pattern of senders
 * and receivers (all-to-all included) can wait in a circle.
 */
final class ObjectCollectives {
    /** The tag of the arrays on the lane: one block per sender and receiver per collective, in order. */
    private static final int TAG = 0;

    private final dev.ferry.Comm c;
    private final dev.ferry.Comm lane;

    ObjectCollectives(dev.ferry.Comm c, dev.ferry.Comm lane) {
        this.c = c;
        this.lane = lane;
    }

    dev.ferry.Comm comm() {
        return c;
    }

    /** One block serialized: its bytes, and the arrays left out of them. */
    private record Block(byte[] bytes, List<Object> arrays) {
        static Block of(Object buf, int offset, int count, ObjectLayout l, String what) {
            List<Object> arrays = new ArrayList<>();
            byte[] bytes = ObjectCodec.write(ObjectCodec.array(buf, what), offset, count, l, what, arrays);
            return new Block(bytes, arrays);
        }
    }

    /** Sends {@code b}'s arrays to each of {@code dests} but this rank (which reads its own block with {@link #own}). */
    private void sendArrays(Block b, int... dests) {
        int me = c.rank();
        int[] others = Arrays.stream(dests).filter(d -> d != me).toArray();
        if (!b.arrays.isEmpty() && others.length > 0) {
            OutOfBandArrays.sendDetached(lane, b.arrays, others, TAG);
        }
    }

    /** Reads {@code bytes}, a block from {@code source}, into {@code count} elements at {@code offset}: its arrays from there, or {@code own}'s. */
    private void read(byte[] bytes, int source, Block own, Object buf, int offset, int count, ObjectLayout l, String what) {
        Object[] out = ObjectCodec.array(buf, what);
        if (source == c.rank()) {
            ObjectCodec.read(bytes, out, offset, count, l, what, OutOfBand.copying(own.arrays));
            return;
        }
        try (OutOfBandArrays.Receiver arrays = new OutOfBandArrays.Receiver(lane, source, TAG)) {
            ObjectCodec.read(bytes, out, offset, count, l, what, arrays);
        }
    }

    void bcast(Object[] buf, int offset, int count, ObjectLayout l, int root) {
        int[] len = new int[1];
        Block mine = null;
        if (c.rank() == root) {
            mine = Block.of(buf, offset, count, l, "buf");
            len[0] = mine.bytes.length;
            sendArrays(mine, everyone());
        }
        c.bcast(len, 0, 1, Datatype.INT, root);
        byte[] bytes = mine != null ? mine.bytes : new byte[len[0]];
        c.bcast(bytes, 0, len[0], Datatype.BYTE, root);
        if (c.rank() != root) {
            read(bytes, root, null, buf, offset, count, l, "buf");
        }
    }

    private int[] everyone() {
        int[] all = new int[c.size()];
        Arrays.setAll(all, i -> i);
        return all;
    }

    private static int[] displs(int[] lens) {
        int[] d = new int[lens.length];
        for (int i = 1; i < lens.length; i++) {
            d[i] = Math.addExact(d[i - 1], lens[i - 1]);
        }
        return d;
    }

    /** The blocks received ({@code lens} bytes at {@code displs}, from rank i each), read into {@code counts[i]} objects at {@code roff + at[i]}. */
    private void readBlocks(byte[] all, int[] lens, int[] displs, Block own, Object recvbuf, int roff, int[] counts, int[] at, ObjectLayout l) {
        for (int i = 0; i < lens.length; i++) {
            read(Arrays.copyOfRange(all, displs[i], displs[i] + lens[i]), i, own, recvbuf, roff + at[i] * l.extent, counts[i], l, "recvbuf");
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

    /** Each of {@code n} blocks serialized ({@code counts[i]} objects at {@code soff + at[i]}), its arrays sent to rank i. */
    private Block[] writeBlocks(Object sendbuf, int soff, int[] counts, int[] at, ObjectLayout l) {
        Block[] blocks = new Block[counts.length];
        for (int i = 0; i < counts.length; i++) {
            blocks[i] = Block.of(sendbuf, soff + at[i] * l.extent, counts[i], l, "sendbuf");
            sendArrays(blocks[i], i);
        }
        return blocks;
    }

    /** The blocks' bytes back to back; their lengths into {@code lens}. */
    private static byte[] concat(Block[] blocks, int[] lens) {
        int total = 0;
        for (int i = 0; i < blocks.length; i++) {
            lens[i] = blocks[i].bytes.length;
            total = Math.addExact(total, lens[i]);
        }
        byte[] all = new byte[total];
        for (int i = 0, pos = 0; i < blocks.length; pos += lens[i], i++) {
            System.arraycopy(blocks[i].bytes, 0, all, pos, lens[i]);
        }
        return all;
    }

    void gather(Object sendbuf, int soff, int scount, ObjectLayout sl, Object recvbuf, int roff, int rcount, ObjectLayout rl, int root) {
        gatherv(sendbuf, soff, scount, sl, recvbuf, roff, uniform(c.size(), rcount), strides(c.size(), rcount), rl, root);
    }

    void gatherv(Object sendbuf, int soff, int scount, ObjectLayout sl, Object recvbuf, int roff, int[] rcounts, int[] rdispls, ObjectLayout rl,
                 int root) {
        Block mine = Block.of(sendbuf, soff, scount, sl, "sendbuf");
        sendArrays(mine, root);
        int n = c.size();
        int[] lens = new int[n];
        c.gather(new int[] {mine.bytes.length}, 0, 1, Datatype.INT, lens, 0, 1, Datatype.INT, root);
        int[] d = displs(lens);
        byte[] all = c.rank() == root ? new byte[d[n - 1] + lens[n - 1]] : new byte[0];
        c.gatherv(mine.bytes, 0, mine.bytes.length, Datatype.BYTE, all, 0, lens, d, Datatype.BYTE, root);
        if (c.rank() == root) {
            readBlocks(all, lens, d, mine, recvbuf, roff, rcounts, rdispls, rl);
        }
    }

    void scatter(Object sendbuf, int soff, int scount, ObjectLayout sl, Object recvbuf, int roff, int rcount, ObjectLayout rl, int root) {
        scatterv(sendbuf, soff, uniform(c.size(), scount), strides(c.size(), scount), sl, recvbuf, roff, rcount, rl, root);
    }

    void scatterv(Object sendbuf, int soff, int[] scounts, int[] sdispls, ObjectLayout sl, Object recvbuf, int roff, int rcount, ObjectLayout rl,
                  int root) {
        int n = c.size();
        int[] lens = new int[n];
        Block[] blocks = c.rank() == root ? writeBlocks(sendbuf, soff, scounts, sdispls, sl) : null;
        byte[] all = blocks != null ? concat(blocks, lens) : new byte[0];
        int[] len = new int[1];
        c.scatter(lens, 0, 1, Datatype.INT, len, 0, 1, Datatype.INT, root);
        byte[] mine = new byte[len[0]];
        c.scatterv(all, 0, lens, displs(lens), Datatype.BYTE, mine, 0, len[0], Datatype.BYTE, root);
        read(mine, root, blocks == null ? null : blocks[root], recvbuf, roff, rcount, rl, "recvbuf");
    }

    void allgather(Object sendbuf, int soff, int scount, ObjectLayout sl, Object recvbuf, int roff, int rcount, ObjectLayout rl) {
        allgatherv(sendbuf, soff, scount, sl, recvbuf, roff, uniform(c.size(), rcount), strides(c.size(), rcount), rl);
    }

    void allgatherv(Object sendbuf, int soff, int scount, ObjectLayout sl, Object recvbuf, int roff, int[] rcounts, int[] rdispls, ObjectLayout rl) {
        Block mine = Block.of(sendbuf, soff, scount, sl, "sendbuf");
        sendArrays(mine, everyone());
        int n = c.size();
        int[] lens = new int[n];
        c.allgather(new int[] {mine.bytes.length}, 0, 1, Datatype.INT, lens, 0, 1, Datatype.INT);
        int[] d = displs(lens);
        byte[] all = new byte[d[n - 1] + lens[n - 1]];
        c.allgatherv(mine.bytes, 0, mine.bytes.length, Datatype.BYTE, all, 0, lens, d, Datatype.BYTE);
        readBlocks(all, lens, d, mine, recvbuf, roff, rcounts, rdispls, rl);
    }

    void alltoall(Object sendbuf, int soff, int scount, ObjectLayout sl, Object recvbuf, int roff, int rcount, ObjectLayout rl) {
        int n = c.size();
        alltoallv(sendbuf, soff, uniform(n, scount), strides(n, scount), sl, recvbuf, roff, uniform(n, rcount), strides(n, rcount), rl);
    }

    void alltoallv(Object sendbuf, int soff, int[] scounts, int[] sdispls, ObjectLayout sl, Object recvbuf, int roff, int[] rcounts, int[] rdispls,
                   ObjectLayout rl) {
        int n = c.size();
        Block[] blocks = writeBlocks(sendbuf, soff, scounts, sdispls, sl);
        int[] slens = new int[n];
        byte[] out = concat(blocks, slens);
        int[] rlens = new int[n];
        c.alltoall(slens, 0, 1, Datatype.INT, rlens, 0, 1, Datatype.INT);
        int[] rd = displs(rlens);
        byte[] all = new byte[rd[n - 1] + rlens[n - 1]];
        c.alltoallv(out, 0, slens, displs(slens), Datatype.BYTE, all, 0, rlens, rd, Datatype.BYTE);
        readBlocks(all, rlens, rd, blocks[c.rank()], recvbuf, roff, rcounts, rdispls, rl);
    }
}
