package openmpi;

import mpi.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * MPI-4's large counts through the mpi package (Ferry's extensions), on a memory segment of
 * 2^31 + 64 bytes, more than any Java array or buffer holds: rank 0 bcasts it; rank 1 zeroes its
 * copy and an in-place allReduce (BOR) gives it back; a window over each rank's segment takes a
 * put of all of it and gives it back by a get. Every byte is checked each time.
 */
public class LargeCounts {
    static long mix(long i) {
        return i * 0x9E3779B97F4A7C15L ^ i >>> 7;
    }

    static void check(MemorySegment m, String what) {
        for (long i = 0; i < m.byteSize() / 8; i++) {
            if (m.getAtIndex(ValueLayout.JAVA_LONG, i) != mix(i)) {
                throw new AssertionError(what + ": long " + i + " differs");
            }
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        long n = (1L << 31) + 64;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment m = arena.allocate(n, 8);
            if (rank == 0) {
                for (long i = 0; i < n / 8; i++) {
                    m.setAtIndex(ValueLayout.JAVA_LONG, i, mix(i));
                }
            }
            world.bcast(m, n, MPI.BYTE, 0);
            check(m, "bcast");
            if (rank == 1) {
                m.fill((byte) 0);
            }
            world.allReduce(m, n, MPI.BYTE, MPI.BOR);
            check(m, "allReduce");

            Win win = new Win(m, n, 1, MPI.INFO_NULL, world);
            if (rank == 1) {
                m.fill((byte) 0);
            }
            win.fence(0);
            if (rank == 0) {
                win.put(m, n, MPI.BYTE, 1, 0L, n, MPI.BYTE);
            }
            win.fence(0);
            if (rank == 1) {
                check(m, "put");
            } else {
                m.fill((byte) 0);
                win.get(m, n, MPI.BYTE, 1, 0L, n, MPI.BYTE);
            }
            win.fence(0);
            if (rank == 0) {
                check(m, "get");
            }
            win.free();
            world.barrier();
            if (rank == 0) {
                System.out.println("ok bcast, allReduce, put and get of " + n + " bytes with long counts, every byte checked");
            }
        }
        MPI.Finalize();
    }
}
