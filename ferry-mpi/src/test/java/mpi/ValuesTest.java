package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The package's values that need no job: datatypes' sizes, structs' layouts, statuses, infos, buffers, objects, error classes. */
class ValuesTest {
    @BeforeAll
    static void errorsReturn() {
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN); // errors of no communicator's go to COMM_WORLD's handler: exceptions here
    }

    @Test
    void openMpiFivesErrorHandlerAndClassAreThere() {
        assertTrue(MPI.ERRORS_ABORT.fatal, "ERRORS_ABORT ends the job as ERRORS_ARE_FATAL does");
        assertEquals("ERRORS_ABORT", MPI.ERRORS_ABORT.toString());
        assertEquals(74, MPI.ERR_PROC_ABORTED); // Open MPI 5's mpi.h
        assertEquals("ERR_PROC_ABORTED", MPI.errorName(MPI.ERR_PROC_ABORTED));
    }

    @Test
    void sizesAndExtentsCountBaseElements() {
        Datatype v = Datatype.createVector(3, 2, 5, MPI.INT);
        assertEquals(6, v.getSize());
        assertEquals(12, v.getExtent());
        assertEquals(2, MPI.FLOAT_COMPLEX.getSize());
        Datatype h = Datatype.createHVector(2, 1, 16, MPI.DOUBLE); // a byte stride of two doubles
        assertEquals(2, h.getSize());
        assertEquals(3, h.getExtent());
        assertEquals(Datatype.INT, Datatype.Indexed(new int[] {1}, new int[] {2}, MPI.INT).getType());
        // types built on MPI.OBJECT count objects; a struct of them is refused
        Datatype objects = Datatype.Vector(3, 1, 4, MPI.OBJECT);
        assertEquals(3, objects.Size());
        assertEquals(9, objects.Extent());
        assertEquals(18, Datatype.Contiguous(2, objects).Extent());
        MPIException e = assertThrows(MPIException.class,
                () -> Datatype.Struct(new int[] {1}, new int[] {0}, new Datatype[] {MPI.OBJECT}));
        assertEquals(MPI.ERR_TYPE, e.getErrorClass());
    }

    @Test
    void mpiJavasStructsCountBaseElementsAndTheMarkersSetTheBounds() {
        // an int between an LB at 0 and a UB at 5 (mpiJava's displacements count ints)
        Datatype padded = Datatype.Struct(new int[] {1, 1, 1}, new int[] {0, 2, 5}, new Datatype[] {MPI.LB, MPI.INT, MPI.UB});
        assertEquals(1, padded.Size());
        assertEquals(0, padded.Lb());
        assertEquals(5, padded.Extent());
        assertEquals(5, padded.Ub());
        assertEquals(2, padded.getTrueLb());
        assertEquals(1, padded.getTrueExtent());
        // without markers: from the lowest element to the end of the highest
        Datatype far = Datatype.Struct(new int[] {1, 1}, new int[] {3, 65}, new Datatype[] {MPI.INT, MPI.INT});
        assertEquals(2, far.Size());
        assertEquals(3, far.Lb());
        assertEquals(63, far.Extent());
        assertEquals(66, far.Ub());
        // only a UB: the lower bound is the data's
        Datatype ubOnly = Datatype.Struct(new int[] {2, 1}, new int[] {1, 10}, new Datatype[] {MPI.DOUBLE, MPI.UB});
        assertEquals(1, ubOnly.Lb());
        assertEquals(9, ubOnly.Extent());
        // an empty struct: no data, no extent
        Datatype empty = Datatype.Struct(new int[0], new int[0], new Datatype[0]);
        assertEquals(0, empty.Size());
        assertEquals(0, empty.Extent());
        // mpiJava's Hvector and Hindexed count base elements too; Open MPI's createH* count bytes
        assertEquals(9, Datatype.Hvector(3, 1, 4, MPI.INT).Extent());
        assertEquals(9, Datatype.createHVector(3, 1, 16, MPI.INT).getExtent());
        Datatype hix = Datatype.Hindexed(new int[] {1, 1}, new int[] {1, 4}, MPI.INT);
        assertEquals(1, hix.Lb());
        assertEquals(4, hix.Extent());
        Datatype ix = Datatype.Indexed(new int[] {1, 1}, new int[] {2, 5}, MPI.INT);
        assertEquals(2, ix.Lb());
        assertEquals(4, ix.Extent());
        assertEquals(6, ix.Ub());
        assertEquals(2, Datatype.createResized(MPI.INT, 0, 8).getExtent());
        MPIException mixed = assertThrows(MPIException.class,
                () -> Datatype.Struct(new int[] {1, 1}, new int[] {0, 1}, new Datatype[] {MPI.INT, MPI.DOUBLE}));
        assertEquals(MPI.ERR_TYPE, mixed.getErrorClass());
    }

    @Test
    void pairStructsMatchMpisPairTypes() {
        assertEquals(16, MPI.doubleInt.getExtent());
        assertSame(MPI.DOUBLE_INT, MPI.doubleInt.getType());
        assertEquals(8, MPI.shortInt.getExtent());
        ByteBuffer b = MPI.newByteBuffer(32);
        DoubleInt.Data d = MPI.doubleInt.getData(b, 1);
        d.putValue(2.5);
        d.putIndex(7);
        assertEquals(2.5, b.getDouble(16));
        assertEquals(7, b.getInt(24));
        assertEquals(7, MPI.doubleInt.<DoubleInt.Data>getData(b, 1).getIndex());
    }

    @Test
    void statusCountsInTheReceivesType() {
        Status s = new Status(3, 9, 24);
        assertEquals(6, s.getCount(MPI.INT));
        assertEquals(3, s.getCount(MPI.DOUBLE));
        assertEquals(MPI.UNDEFINED, s.getCount(Datatype.createContiguous(5, MPI.INT)));
        assertEquals(6, s.getElements(Datatype.createContiguous(5, MPI.INT)));
        assertEquals(3, s.source);
        assertEquals(9, s.getTag());
        assertFalse(s.Test_cancelled());
    }

    @Test
    void infoKeepsKeysInOrderAndNullInfoHoldsNone() {
        Info i = new Info();
        i.set("b", "1");
        i.set("a", "2");
        assertEquals(List.of("b", "a"), List.of(i.getKey(0), i.getKey(1)));
        i.delete("b");
        assertNull(i.get("b"));
        assertEquals(MPI.ERR_INFO_NOKEY, assertThrows(MPIException.class, () -> i.delete("b")).getErrorClass());
        assertThrows(MPIException.class, () -> MPI.INFO_NULL.set("k", "v"));
    }

    @Test
    void buffersAreAddressedFromTheirStart() {
        IntBuffer direct = MPI.newIntBuffer(8);
        direct.position(5);
        assertEquals(32, Buf.segment(direct).byteSize(), "the whole capacity, whatever the position");
        assertSame(Buf.segment(direct), Buf.segment(direct), "a buffer used again costs no new view");
        assertEquals(12, Buf.offset(direct, 3), "a direct buffer's offset counts bytes for Ferry");
        IntBuffer heap = MPI.slice(new int[10], 4);
        assertEquals(6, Buf.offset(heap, 2), "a heap view's offset counts from its array's start");
        assertTrue(Buf.target(heap) instanceof int[]);
        IntBuffer slice = MPI.slice(direct, 2);
        slice.put(0, 99);
        assertEquals(99, direct.get(2));
    }

    @Test
    void objectsRoundTripAndTooManyIsTruncation() {
        Object[] out = {"a", 1, List.of(2.0)}, in = new Object[4];
        byte[] bytes = ObjectCodec.write(out, 0, 3, "buf");
        assertEquals(3, ObjectCodec.read(bytes, in, 1, 3, "buf"));
        assertArrayEquals(new Object[] {null, "a", 1, List.of(2.0)}, in);
        assertEquals(MPI.ERR_TRUNCATE, assertThrows(MPIException.class, () -> ObjectCodec.read(bytes, in, 0, 2, "buf")).getErrorClass());
        assertEquals(MPI.ERR_TYPE, assertThrows(MPIException.class, () -> ObjectCodec.write(new Object[] {new Object()}, 0, 1, "buf")).getErrorClass());
    }

    @Test
    void errorClassesHaveMpisNames() {
        assertEquals("ERR_RANK", MPI.errorName(MPI.ERR_RANK));
        assertEquals(MPI.ERR_PROC_FAILED, Errors.classOf(dev.ferry.ErrorClass.PROC_FAILED));
        MPIException e = Errors.translate(new dev.ferry.FerryException(dev.ferry.ErrorClass.TAG, "tag: -3 is negative"));
        assertEquals(MPI.ERR_TAG, e.getErrorClass());
        assertEquals("tag: -3 is negative", e.getMessage());
        assertEquals(MPI.ERR_TAG, Errors.raise(MPI.ERRORS_RETURN, e).getErrorClass(), "ERRORS_RETURN hands the exception back");
    }
}
