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
    /** For MPI.OBJECT and the types built on it: where an element's objects lie; else null. */
    final ObjectLayout objects;
    private String name;
    private boolean freed;

    Datatype(dev.ferry.Datatype type, int baseType, int baseSize, String name) {
        this(type, baseType, baseSize, name, baseType == OBJECT ? ObjectLayout.ONE : null);
    }

    private Datatype(dev.ferry.Datatype type, int baseType, int baseSize, String name, ObjectLayout objects) {
        this.type = type;
        this.baseType = baseType;
        this.baseSize = baseSize;
        this.name = name;
        this.objects = objects;
    }

    private Datatype derived(dev.ferry.Datatype t, String name) {
        return new Datatype(t, baseType, baseSize, name);
    }

    /** A type built on MPI.OBJECT (mpiJava): no bytes of Ferry's, its objects' places instead. */
    private Datatype derivedObjects(ObjectLayout l, String name) {
        return new Datatype(null, OBJECT, baseSize, name, l);
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
            throw new MPIException(MPI.ERR_TYPE, what + ": a struct or resized type cannot be built on MPI.OBJECT in Ferry "
                    + "(contiguous, vector, indexed, hvector and hindexed can)");
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
        return objects != null ? objects.lb : type == null ? 0 : units(type.lowerBound());
    }

    public int getExtent() {
        return objects != null ? objects.extent : type == null ? 0 : units(type.extent());
    }

    public int getTrueLb() {
        return objects != null ? objects.lb : type == null ? 0 : units(type.trueLowerBound());
    }

    public int getTrueExtent() {
        return type == null ? getExtent() : units(type.trueExtent());
    }

    public int getSize() {
        return objects != null ? objects.size() : type == null ? 0 : units(type.size());
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
        return objects != null ? objects.lb + objects.extent : type == null ? getExtent() : units(type.upperBound());
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
        return new Datatype(type, baseType, baseSize, name, objects);
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
            if (oldType != null && oldType.isObject()) {
                return oldType.derivedObjects(ObjectLayout.contiguous(count, oldType.objects), "contiguous(" + count + ", " + oldType.name + ")");
            }
            return oldType.derived(dev.ferry.Datatype.contiguous(count, base(oldType, "oldType")), "contiguous(" + count + ", " + oldType.name + ")");
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType) {
        try {
            if (oldType != null && oldType.isObject()) {
                return oldType.derivedObjects(ObjectLayout.vector(count, blockLength, stride, oldType.objects, false),
                        "vector(" + count + ", " + blockLength + ", " + stride + ", " + oldType.name + ")");
            }
            return oldType.derived(dev.ferry.Datatype.vector(count, blockLength, stride, base(oldType, "oldType")),
                    "vector(" + count + ", " + blockLength + ", " + stride + ", " + oldType.name + ")");
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    /** Like {@link #createVector}, with {@code stride} in bytes. */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType) {
        try {
            if (oldType != null && oldType.isObject()) { // mpiJava's Hvector of objects: the stride counts objects
                return oldType.derivedObjects(ObjectLayout.vector(count, blockLength, stride, oldType.objects, true),
                        "hvector(" + count + ", " + blockLength + ", " + stride + ", " + oldType.name + ")");
            }
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
            if (oldType != null && oldType.isObject()) {
                return oldType.derivedObjects(ObjectLayout.indexed(blockLengths, displacements, oldType.objects, false),
                        "indexed(" + Arrays.toString(blockLengths) + ", " + Arrays.toString(displacements) + ", " + oldType.name + ")");
            }
            return oldType.derived(dev.ferry.Datatype.indexed(blockLengths, displacements, base(oldType, "oldType")),
                    "indexed(" + Arrays.toString(blockLengths) + ", " + Arrays.toString(displacements) + ", " + oldType.name + ")");
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    /** Like {@link #createIndexed}, with displacements in bytes. */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType) {
        try {
            if (oldType != null && oldType.isObject()) { // mpiJava's Hindexed of objects: the displacements count objects
                return oldType.derivedObjects(ObjectLayout.indexed(blockLengths, displacements, oldType.objects, true),
                        "hindexed(" + Arrays.toString(blockLengths) + ", " + oldType.name + ")");
            }
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
            return structOf(blockLengths, displacements, types, false);
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    /**
     * A struct whose displacements count bytes, or ({@code oneBase}: mpiJava's Struct, whose types
     * share one base type) elements of that base type. mpiJava's {@link MPI#LB} and {@link MPI#UB} entries set the lower and upper
     * bound (MPI-1's markers), the others are the data.
     */
    private static Datatype structOf(int[] blockLengths, int[] displacements, Datatype[] types, boolean oneBase) {
        if (blockLengths == null || displacements == null || types == null) {
            throw new MPIException(MPI.ERR_ARG, "blockLengths, displacements and types must not be null");
        }
        if (blockLengths.length != displacements.length || blockLengths.length != types.length) {
            throw new MPIException(MPI.ERR_ARG, "blockLengths, displacements and types have "
                    + blockLengths.length + ", " + displacements.length + " and " + types.length + " entries");
        }
        int n = 0, base = NULL, size = 0;
        boolean same = true;
        for (int i = 0; i < types.length; i++) {
            Datatype t = types[i];
            if (t == null) {
                throw new MPIException(MPI.ERR_TYPE, "types[" + i + "] is null");
            }
            if (t.baseType == LB || t.baseType == UB) {
                continue;
            }
            if (n++ == 0) {
                base = t.baseType;
                size = t.baseSize;
            } else if (t.baseType != base) {
                same = false;
                if (oneBase) {
                    throw new MPIException(MPI.ERR_TYPE, "types[" + i + "]: mpiJava's Struct takes types of one base type, and " + t.name
                            + " is not made of the same elements as " + types[0].name);
                }
            }
        }
        long u = oneBase ? Math.max(1, size) : 1;
        int[] lengths = new int[n];
        long[] offsets = new long[n];
        Datatype[] kept = new Datatype[n];
        long lbMark = Long.MAX_VALUE, ubMark = Long.MIN_VALUE;
        for (int i = 0, j = 0; i < types.length; i++) {
            long at = displacements[i] * u;
            if (types[i].baseType == LB) {
                lbMark = Math.min(lbMark, at);
            } else if (types[i].baseType == UB) {
                ubMark = Math.max(ubMark, at);
            } else {
                lengths[j] = blockLengths[i];
                offsets[j] = at;
                kept[j++] = types[i];
            }
        }
        dev.ferry.Datatype t = struct(lengths, offsets, kept);
        if (lbMark != Long.MAX_VALUE || ubMark != Long.MIN_VALUE) {
            long lb = lbMark != Long.MAX_VALUE ? lbMark : t.lowerBound();
            long ub = ubMark != Long.MIN_VALUE ? ubMark : t.upperBound();
            t = dev.ferry.Datatype.resized(t, lb, ub - lb);
        }
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

    /** {@code oldType} with lower bound {@code lb} and extent {@code extent}, in bytes (MPI_Type_create_resized). */
    public static Datatype createResized(Datatype oldType, int lb, int extent) {
        try {
            return oldType.derived(dev.ferry.Datatype.resized(base(oldType, "oldType"), lb, extent),
                    "resized(" + oldType.name + ", " + lb + ", " + extent + ")");
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    // --- mpiJava 1.2 names ---------------------------------------------------------------------

    public static Datatype Contiguous(int count, Datatype oldtype) {
        return createContiguous(count, oldtype);
    }

    public static Datatype Vector(int count, int blocklength, int stride, Datatype oldtype) {
        return createVector(count, blocklength, stride, oldtype);
    }

    /** mpiJava's: {@link #Vector} with the stride in elements of the base type (the buffer's index), not of {@code oldtype}. */
    public static Datatype Hvector(int count, int blocklength, int stride, Datatype oldtype) {
        return createHVector(count, blocklength, Math.multiplyExact(stride, unitOf(oldtype)), oldtype);
    }

    public static Datatype Indexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        return createIndexed(blocklengths, displacements, oldtype);
    }

    /** mpiJava's: {@link #Indexed} with displacements in elements of the base type (the buffer's index). */
    public static Datatype Hindexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        int unit = unitOf(oldtype);
        int[] bytes = displacements == null ? null : new int[displacements.length];
        for (int i = 0; bytes != null && i < bytes.length; i++) {
            bytes[i] = Math.multiplyExact(displacements[i], unit);
        }
        return createHIndexed(blocklengths, bytes, oldtype);
    }

    /**
     * mpiJava's struct: the types share one base type, the displacements count its elements (the
     * buffer's index), and {@link MPI#LB} / {@link MPI#UB} entries set the bounds.
     */
    public static Datatype Struct(int[] blocklengths, int[] displacements, Datatype[] types) {
        try {
            return structOf(blocklengths, displacements, types, true);
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    private static int unitOf(Datatype t) {
        if (t == null) {
            throw wrap(new MPIException(MPI.ERR_TYPE, "oldtype is null"));
        }
        return Math.max(1, t.baseSize);
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
