package mpi;

import java.util.Arrays;

/**
 * A datatype: a primitive ({@link MPI#INT}, {@link MPI#DOUBLE}, ...), a value-and-index pair for
 * MINLOC and MAXLOC, {@link MPI#OBJECT} (serializable objects, mpiJava), or one derived from them.
 * Sizes and extents count elements of the base type, as both Java MPI APIs do.
 *
 * <pre>{@code
 * Datatype column = Datatype.createVector(rows, 1, cols, MPI.DOUBLE);  // Open MPI bindings
 * Datatype column2 = Datatype.Vector(rows, 1, cols, MPI.DOUBLE);        // mpiJava 1.2
 * comm.send(matrix, 1, column, dest, tag);
 * }</pre>
 */
public class Datatype implements Freeable, Cloneable {
    static final int NULL = 0, BYTE = 1, CHAR = 2, SHORT = 3, BOOLEAN = 4, INT = 5, LONG = 6, FLOAT = 7, DOUBLE = 8,
            PACKED = 9, INT2 = 10, SHORT_INT = 11, LONG_INT = 12, FLOAT_INT = 13, DOUBLE_INT = 14, FLOAT_COMPLEX = 15,
            DOUBLE_COMPLEX = 16, OBJECT = 17, SHORT2 = 18, LONG2 = 19, FLOAT2 = 20, DOUBLE2 = 21, LB = 22, UB = 23;

    /** Ferry's type; null for NULL, OBJECT and the LB / UB markers. */
    final dev.ferry.Datatype type;
    /** The primitive (or pair) it is made of: one of the codes above. */
    public int baseType;
    /** Bytes of one base element. */
    final int baseSize;
    private String name;
    private boolean freed;

    Datatype(dev.ferry.Datatype type, int baseType, int baseSize, String name) {
        this.type = type;
        this.baseType = baseType;
        this.baseSize = baseSize;
        this.name = name;
    }

    private Datatype derived(dev.ferry.Datatype t, String name) {
        return new Datatype(t, baseType, baseSize, name);
    }

    /** Ferry's type, or an error naming {@code what} when there is none (OBJECT, NULL, LB, UB). */
    final dev.ferry.Datatype ferry(String what) {
        if (freed) {
            throw new MPIException(MPI.ERR_TYPE, what + ": datatype " + name + " was freed");
        }
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, what + ": datatype " + name + " does not describe data here");
        }
        return type;
    }

    final boolean isObject() {
        return baseType == OBJECT;
    }

    final boolean isBoolean() {
        return baseType == BOOLEAN;
    }

    private static dev.ferry.Datatype base(Datatype old, String what) {
        if (old == null) {
            throw new MPIException(MPI.ERR_TYPE, what + " is null");
        }
        if (old.isObject()) {
            throw new MPIException(MPI.ERR_TYPE, what + ": MPI.OBJECT cannot be the base of a derived type in Ferry");
        }
        return old.ferry(what);
    }

    private static MPIException wrap(RuntimeException e) {
        return Errors.raise(MPI.COMM_WORLD.errhandler(), e);
    }

    // --- sizes (in base elements) --------------------------------------------------------------

    private int units(long bytes) {
        return baseSize == 0 ? 0 : (int) (bytes / baseSize);
    }

    public int getLb() {
        return 0;
    }

    public int getExtent() {
        return type == null ? (isObject() ? 1 : 0) : units(type.extent());
    }

    public int getTrueLb() {
        return 0;
    }

    public int getTrueExtent() {
        return getExtent();
    }

    public int getSize() {
        return type == null ? (isObject() ? 1 : 0) : units(type.size());
    }

    /** The base type's code (mpiJava). */
    public int getType() {
        return baseType;
    }

    /** Bytes of one base element (mpiJava). */
    public int getByteSize() {
        return baseSize;
    }

    public int Extent() {
        return getExtent();
    }

    public int Size() {
        return getSize();
    }

    public int Lb() {
        return getLb();
    }

    public int Ub() {
        return getExtent();
    }

    /** Nothing to do: Ferry's types are ready when made. */
    public void commit() {
        checkNotFreed();
    }

    public void Commit() {
        commit();
    }

    private void checkNotFreed() {
        if (freed) {
            throw wrap(new MPIException(MPI.ERR_TYPE, "datatype " + name + " was freed"));
        }
    }

    @Override
    public void free() {
        if (MPI.isPredefined(this)) {
            throw wrap(new MPIException(MPI.ERR_TYPE, "datatype " + name + " is predefined and cannot be freed"));
        }
        freed = true;
    }

    public boolean isNull() {
        return baseType == NULL;
    }

    @Override
    public Datatype clone() {
        return dup();
    }

    public Datatype dup() {
        checkNotFreed();
        return new Datatype(type, baseType, baseSize, name);
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    // --- constructors of derived types (Open MPI bindings) --------------------------------------

    public static Datatype createContiguous(int count, Datatype oldType) {
        try {
            return oldType.derived(dev.ferry.Datatype.contiguous(count, base(oldType, "oldType")), "contiguous(" + count + ", " + oldType.name + ")");
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType) {
        try {
            return oldType.derived(dev.ferry.Datatype.vector(count, blockLength, stride, base(oldType, "oldType")),
                    "vector(" + count + ", " + blockLength + ", " + stride + ", " + oldType.name + ")");
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    /** Like {@link #createVector}, with {@code stride} in bytes. */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType) {
        try {
            int[] lengths = new int[count];
            long[] displs = new long[count];
            Datatype[] types = new Datatype[count];
            for (int i = 0; i < count; i++) {
                lengths[i] = blockLength;
                displs[i] = (long) i * stride;
                types[i] = oldType;
            }
            return oldType.derived(struct(lengths, displs, types), "hvector(" + count + ", " + blockLength + ", " + stride + ", " + oldType.name + ")");
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType) {
        try {
            return oldType.derived(dev.ferry.Datatype.indexed(blockLengths, displacements, base(oldType, "oldType")),
                    "indexed(" + Arrays.toString(blockLengths) + ", " + Arrays.toString(displacements) + ", " + oldType.name + ")");
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    /** Like {@link #createIndexed}, with displacements in bytes. */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType) {
        try {
            if (blockLengths.length != displacements.length) {
                throw new MPIException(MPI.ERR_ARG, "blockLengths has " + blockLengths.length + " entries, displacements " + displacements.length);
            }
            long[] displs = new long[displacements.length];
            Datatype[] types = new Datatype[displacements.length];
            for (int i = 0; i < displs.length; i++) {
                displs[i] = displacements[i];
                types[i] = oldType;
            }
            return oldType.derived(struct(blockLengths, displs, types), "hindexed(" + Arrays.toString(blockLengths) + ", " + oldType.name + ")");
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    /** Blocks of {@code blockLengths[i]} elements of {@code types[i]} at byte displacement {@code displacements[i]}. */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types) {
        try {
            long[] displs = new long[displacements.length];
            for (int i = 0; i < displs.length; i++) {
                displs[i] = displacements[i];
            }
            return structOf(blockLengths, displs, types);
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    private static Datatype structOf(int[] blockLengths, long[] displs, Datatype[] types) {
        // mpiJava's LB and UB markers bound the type; Ferry's types start at 0 and end at their last block
        int n = 0;
        for (Datatype t : types) {
            if (t == null) {
                throw new MPIException(MPI.ERR_TYPE, "types: an entry is null");
            }
            if (t.baseType != LB && t.baseType != UB) {
                n++;
            }
        }
        int[] lengths = new int[n];
        long[] offsets = new long[n];
        Datatype[] kept = new Datatype[n];
        int base = BYTE, size = 1;
        boolean same = true;
        for (int i = 0, j = 0; i < types.length; i++) {
            if (types[i].baseType == LB || types[i].baseType == UB) {
                continue;
            }
            lengths[j] = blockLengths[i];
            offsets[j] = displs[i];
            kept[j] = types[i];
            if (j == 0) {
                base = types[i].baseType;
                size = types[i].baseSize;
            } else if (types[i].baseType != base) {
                same = false;
            }
            j++;
        }
        dev.ferry.Datatype t = struct(lengths, offsets, kept);
        return same && n > 0 ? new Datatype(t, base, size, "struct") : new Datatype(t, BYTE, 1, "struct");
    }

    private static dev.ferry.Datatype struct(int[] lengths, long[] displs, Datatype[] types) {
        if (lengths.length != displs.length || lengths.length != types.length) {
            throw new MPIException(MPI.ERR_ARG, "blockLengths, displacements and types have "
                    + lengths.length + ", " + displs.length + " and " + types.length + " entries");
        }
        dev.ferry.Datatype[] ferry = new dev.ferry.Datatype[types.length];
        for (int i = 0; i < types.length; i++) {
            ferry[i] = base(types[i], "types[" + i + "]");
        }
        return dev.ferry.Datatype.struct(lengths, displs, ferry);
    }

    /**
     * Not available: Ferry's datatypes have a lower bound of 0 and end at their last block, so a
     * type cannot be resized; the error says so.
     */
    public static Datatype createResized(Datatype oldType, int lb, int extent) {
        if (lb == 0 && extent == oldType.getExtent()) {
            return oldType.dup();
        }
        throw wrap(new MPIException(MPI.ERR_UNSUPPORTED_OPERATION,
                "createResized(lb " + lb + ", extent " + extent + "): Ferry's datatypes cannot be resized (lower bound 0, extent to the last block)"));
    }

    // --- mpiJava 1.2 names ---------------------------------------------------------------------

    public static Datatype Contiguous(int count, Datatype oldtype) {
        return createContiguous(count, oldtype);
    }

    public static Datatype Vector(int count, int blocklength, int stride, Datatype oldtype) {
        return createVector(count, blocklength, stride, oldtype);
    }

    public static Datatype Hvector(int count, int blocklength, int stride, Datatype oldtype) {
        return createHVector(count, blocklength, stride, oldtype);
    }

    public static Datatype Indexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        return createIndexed(blocklengths, displacements, oldtype);
    }

    public static Datatype Hindexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        return createHIndexed(blocklengths, displacements, oldtype);
    }

    public static Datatype Struct(int[] blocklengths, int[] displacements, Datatype[] types) {
        return createStruct(blocklengths, displacements, types);
    }

    // --- attributes ----------------------------------------------------------------------------

    public static int createKeyval() {
        return Attributes.createKeyval();
    }

    public static void freeKeyval(int keyval) {
        Attributes.freeKeyval(keyval);
    }

    private final Attributes attributes = new Attributes();

    public void setAttr(int keyval, Object value) {
        attributes.set(keyval, value);
    }

    public Object getAttr(int keyval) {
        return attributes.get(keyval);
    }

    public void deleteAttr(int keyval) {
        attributes.delete(keyval);
    }

    @Override
    public String toString() {
        return name;
    }
}
