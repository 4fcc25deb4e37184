package mpi;

/** {@code boolean[]} buffers (MPI.BOOLEAN): Ferry moves bytes, so they travel through a byte copy, one byte per value. */
final class Bools {
    private Bools() {
    }

    static byte[] toBytes(boolean[] b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) (b[i] ? 1 : 0);
        }
        return out;
    }

    static void copyBack(byte[] from, boolean[] to) {
        for (int i = 0; i < to.length; i++) {
            to[i] = from[i] != 0;
        }
    }
}
