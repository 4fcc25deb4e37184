package mpi;

import dev.ferry.Comparison;
import dev.ferry.Ferry;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Map;
import java.util.TreeMap;

/**
 * The entry point of the {@code mpi} package: initialization, the predefined communicators,
 * datatypes, operations and constants, timers and buffer helpers, in the names of both Java MPI
 * APIs (the Open MPI bindings: {@code MPI.Init}, {@code MPI.COMM_WORLD.getRank()},
 * {@code MPI.newIntBuffer}; mpiJava 1.2: {@code MPI.Init}, {@code MPI.COMM_WORLD.Rank()},
 * {@code MPI.OBJECT}). Underneath is one {@link Ferry} instance per process, so programs run
 * under {@code ferry run}, Hydra's {@code mpiexec}, Slurm's {@code srun} or Open MPI's
 * {@code mpirun}, or alone as a job of one.
 *
 * <pre>{@code
 * public static void main(String[] args) throws MPIException {
 *     MPI.Init(args);
 *     int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
 *     System.out.println("rank " + rank + " of " + size);
 *     MPI.Finalize();
 * }
 * }</pre>
 */
public final class MPI {
    // --- version, threads, topologies, comparisons ------------------------------------------------
    public static final int VERSION = 3, SUBVERSION = 1;
    public static final int THREAD_SINGLE = 0, THREAD_FUNNELED = 1, THREAD_SERIALIZED = 2, THREAD_MULTIPLE = 3;
    public static final int GRAPH = 1, DIST_GRAPH = 3, CART = 2;
    public static final int IDENT = 0, CONGRUENT = 1, SIMILAR = 2, UNEQUAL = 3;

    // --- ranks and tags (Ferry's values) ------------------------------------------------------------
    public static final int ANY_SOURCE = Ferry.ANY_SOURCE, ANY_TAG = Ferry.ANY_TAG, PROC_NULL = Ferry.PROC_NULL;
    public static final int UNDEFINED = Ferry.UNDEFINED, ROOT = Ferry.ROOT;

    // --- predefined attribute keys (getAttr) ----------------------------------------------------------
    public static final int TAG_UB = 0, HOST = 1, IO = 2, WTIME_IS_GLOBAL = 3, APPNUM = 4, LASTUSEDCODE = 5, UNIVERSE_SIZE = 6,
            WIN_BASE = 7, WIN_SIZE = 8, WIN_DISP_UNIT = 9, KEYVAL_INVALID = -1;

    // --- limits, modes and assertions ----------------------------------------------------------------
    public static final int BSEND_OVERHEAD = Ferry.BSEND_OVERHEAD, SEND_OVERHEAD = 0, RECV_OVERHEAD = 0;
    public static final int MAX_OBJECT_NAME = 64, MAX_PORT_NAME = 1024, MAX_DATAREP_STRING = 128, MAX_INFO_KEY = 255, MAX_INFO_VAL = 1024;
    public static final int ORDER_C = 0, ORDER_FORTRAN = 1;
    public static final int DISTRIBUTE_BLOCK = 121, DISTRIBUTE_CYCLIC = 122, DISTRIBUTE_NONE = 123, DISTRIBUTE_DFLT_DARG = -1;
    public static final int MODE_CREATE = 1, MODE_RDONLY = 2, MODE_WRONLY = 4, MODE_RDWR = 8, MODE_DELETE_ON_CLOSE = 16,
            MODE_UNIQUE_OPEN = 32, MODE_EXCL = 64, MODE_APPEND = 128, MODE_SEQUENTIAL = 256;
    public static final int DISPLACEMENT_CURRENT = -54278278, SEEK_SET = 600, SEEK_CUR = 602, SEEK_END = 604;
    public static final int MODE_NOCHECK = 1, MODE_NOPRECEDE = 2, MODE_NOPUT = 4, MODE_NOSTORE = 8, MODE_NOSUCCEED = 16;
    public static final int LOCK_EXCLUSIVE = 1, LOCK_SHARED = 2;

    // --- error classes (Open MPI's numbers; PROC_FAILED, PROC_FAILED_PENDING and REVOKED as ULFM's) -----------------------------------
    public static final int SUCCESS = 0, ERR_BUFFER = 1, ERR_COUNT = 2, ERR_TYPE = 3, ERR_TAG = 4, ERR_COMM = 5, ERR_RANK = 6,
            ERR_REQUEST = 7, ERR_ROOT = 8, ERR_GROUP = 9, ERR_OP = 10, ERR_TOPOLOGY = 11, ERR_DIMS = 12, ERR_ARG = 13,
            ERR_UNKNOWN = 14, ERR_TRUNCATE = 15, ERR_OTHER = 16, ERR_INTERN = 17, ERR_IN_STATUS = 18, ERR_PENDING = 19,
            ERR_ACCESS = 20, ERR_AMODE = 21, ERR_ASSERT = 22, ERR_BAD_FILE = 23, ERR_BASE = 24, ERR_CONVERSION = 25,
            ERR_DISP = 26, ERR_DUP_DATAREP = 27, ERR_FILE_EXISTS = 28, ERR_FILE_IN_USE = 29, ERR_FILE = 30, ERR_INFO_KEY = 31,
            ERR_INFO_NOKEY = 32, ERR_INFO_VALUE = 33, ERR_INFO = 34, ERR_IO = 35, ERR_KEYVAL = 36, ERR_LOCKTYPE = 37,
            ERR_NAME = 38, ERR_NO_MEM = 39, ERR_NOT_SAME = 40, ERR_NO_SPACE = 41, ERR_NO_SUCH_FILE = 42, ERR_PORT = 43,
            ERR_QUOTA = 44, ERR_READ_ONLY = 45, ERR_RMA_CONFLICT = 46, ERR_RMA_SYNC = 47, ERR_SERVICE = 48, ERR_SIZE = 49,
            ERR_SPAWN = 50, ERR_UNSUPPORTED_DATAREP = 51, ERR_UNSUPPORTED_OPERATION = 52, ERR_WIN = 53,
            ERR_RMA_RANGE = 55, ERR_RMA_ATTACH = 56, ERR_RMA_SHARED = 58, ERR_PROC_ABORTED = 74, ERR_PROC_FAILED = 75,
            ERR_PROC_FAILED_PENDING = 76, ERR_REVOKED = 77, ERR_LASTCODE = 92,
            ERR_SYSRESOURCE = -2;

    // --- datatypes ----------------------------------------------------------------------------------
    public static final Datatype DATATYPE_NULL = new Datatype(null, Datatype.NULL, 0, "DATATYPE_NULL");
    public static final Datatype BYTE = new Datatype(dev.ferry.Datatype.BYTE, Datatype.BYTE, 1, "BYTE");
    public static final Datatype CHAR = new Datatype(dev.ferry.Datatype.CHAR, Datatype.CHAR, 2, "CHAR");
    public static final Datatype SHORT = new Datatype(dev.ferry.Datatype.SHORT, Datatype.SHORT, 2, "SHORT");
    /** One byte per value; {@code boolean[]} buffers travel through a byte copy. */
    public static final Datatype BOOLEAN = new Datatype(dev.ferry.Datatype.BYTE, Datatype.BOOLEAN, 1, "BOOLEAN");
    public static final Datatype INT = new Datatype(dev.ferry.Datatype.INT, Datatype.INT, 4, "INT");
    public static final Datatype LONG = new Datatype(dev.ferry.Datatype.LONG, Datatype.LONG, 8, "LONG");
    public static final Datatype FLOAT = new Datatype(dev.ferry.Datatype.FLOAT, Datatype.FLOAT, 4, "FLOAT");
    public static final Datatype DOUBLE = new Datatype(dev.ferry.Datatype.DOUBLE, Datatype.DOUBLE, 8, "DOUBLE");
    public static final Datatype PACKED = new Datatype(dev.ferry.Datatype.BYTE, Datatype.PACKED, 1, "PACKED");
    public static final Datatype FLOAT_COMPLEX = new Datatype(dev.ferry.Datatype.contiguous(2, dev.ferry.Datatype.FLOAT), Datatype.FLOAT_COMPLEX, 4, "FLOAT_COMPLEX");
    public static final Datatype DOUBLE_COMPLEX = new Datatype(dev.ferry.Datatype.contiguous(2, dev.ferry.Datatype.DOUBLE), Datatype.DOUBLE_COMPLEX, 8, "DOUBLE_COMPLEX");
    public static final Datatype INT2 = new Datatype(dev.ferry.Datatype.INT2, Datatype.INT2, 4, "INT2");
    public static final Datatype SHORT_INT = new Datatype(dev.ferry.Datatype.SHORT_INT, Datatype.SHORT_INT, 1, "SHORT_INT");
    public static final Datatype LONG_INT = new Datatype(dev.ferry.Datatype.LONG_INT, Datatype.LONG_INT, 1, "LONG_INT");
    public static final Datatype FLOAT_INT = new Datatype(dev.ferry.Datatype.FLOAT_INT, Datatype.FLOAT_INT, 1, "FLOAT_INT");
    public static final Datatype DOUBLE_INT = new Datatype(dev.ferry.Datatype.DOUBLE_INT, Datatype.DOUBLE_INT, 1, "DOUBLE_INT");
    /** mpiJava: the pairs of two values of one type, and serializable objects. */
    public static final Datatype SHORT2 = new Datatype(dev.ferry.Datatype.SHORT2, Datatype.SHORT2, 2, "SHORT2");
    public static final Datatype LONG2 = new Datatype(dev.ferry.Datatype.LONG2, Datatype.LONG2, 8, "LONG2");
    public static final Datatype FLOAT2 = new Datatype(dev.ferry.Datatype.FLOAT2, Datatype.FLOAT2, 4, "FLOAT2");
    public static final Datatype DOUBLE2 = new Datatype(dev.ferry.Datatype.DOUBLE2, Datatype.DOUBLE2, 8, "DOUBLE2");
    public static final Datatype OBJECT = new Datatype(null, Datatype.OBJECT, 1, "OBJECT");
    public static final Datatype NULL = DATATYPE_NULL;
    /** mpiJava's bound markers of a struct: accepted by {@link Datatype#Struct} and ignored (Ferry's types start at 0 and end at their last block). */
    public static final Datatype LB = new Datatype(null, Datatype.LB, 0, "LB");
    public static final Datatype UB = new Datatype(null, Datatype.UB, 0, "UB");

    public static final Int2 int2 = new Int2();
    public static final ShortInt shortInt = new ShortInt();
    public static final LongInt longInt = new LongInt();
    public static final FloatInt floatInt = new FloatInt();
    public static final DoubleInt doubleInt = new DoubleInt();

    // --- operations ---------------------------------------------------------------------------------
    public static final Op MAX = new Op(dev.ferry.Op.MAX), MIN = new Op(dev.ferry.Op.MIN), SUM = new Op(dev.ferry.Op.SUM),
            PROD = new Op(dev.ferry.Op.PROD), LAND = new Op(dev.ferry.Op.LAND), BAND = new Op(dev.ferry.Op.BAND),
            LOR = new Op(dev.ferry.Op.LOR), BOR = new Op(dev.ferry.Op.BOR), LXOR = new Op(dev.ferry.Op.LXOR),
            BXOR = new Op(dev.ferry.Op.BXOR), REPLACE = new Op(dev.ferry.Op.REPLACE), NO_OP = new Op(dev.ferry.Op.NO_OP),
            MINLOC = new Op(dev.ferry.Op.MINLOC), MAXLOC = new Op(dev.ferry.Op.MAXLOC);

    // --- error handlers, communicators, groups, requests, infos --------------------------------------
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler(true, "ERRORS_ARE_FATAL");
    public static final Errhandler ERRORS_RETURN = new Errhandler(false, "ERRORS_RETURN");
    /** Open MPI 5 (MPI-4): fatal, as {@link #ERRORS_ARE_FATAL}. */
    public static final Errhandler ERRORS_ABORT = new Errhandler(true, "ERRORS_ABORT");
    /** All the job's processes; usable once {@link #Init} has run. */
    public static final Intracomm COMM_WORLD = new Intracomm(null);
    /** The calling process alone. */
    public static final Intracomm COMM_SELF = new Intracomm(null);
    /** mpiJava's null communicator. */
    public static final Intracomm COMM_NULL = new Intracomm(null);
    public static final Request REQUEST_NULL = Request.nullRequest();
    public static final Group GROUP_EMPTY = Group.empty();
    public static final Group GROUP_NULL = Group.nullGroup();
    public static final Info INFO_NULL = Info.nullInfo();
    public static final Info INFO_ENV = Info.environment();
    public static final Status EMPTY_STATUS = new Status();

    // --- mpiJava's flags ------------------------------------------------------------------------------
    public static final boolean DEBUG = false;
    public static final int NUM_OF_PROCESSORS = Runtime.getRuntime().availableProcessors();
    /** Unused (MPJ Express's choice of device generation). */
    public static boolean isOldSelected = false;

    /** The marker of an in-place collective, passed internally by the in-place overloads. */
    static final Object IN_PLACE = new Object();

    private static final Object LOCK = new Object();
    private static Ferry ferry;
    private static boolean finalized;
    private static Thread mainThread;

    static {
        COMM_WORLD.setName("MPI_COMM_WORLD");
        COMM_SELF.setName("MPI_COMM_SELF");
        COMM_NULL.setName("MPI_COMM_NULL");
    }

    public MPI() {
    }

    // --- initialization -------------------------------------------------------------------------------

    /**
     * Joins the job (the launcher's, or a job of one); answers {@code args}, which carry no
     * arguments of Ferry's to strip.
     */
    public static String[] Init(String[] args) {
        synchronized (LOCK) {
            if (ferry != null) {
                throw Errors.raise(COMM_WORLD.errhandler(), ERR_OTHER, "MPI.Init: MPI is initialized already");
            }
            if (finalized) {
                throw Errors.raise(COMM_WORLD.errhandler(), ERR_OTHER, "MPI.Init: MPI was finalized and cannot start again");
            }
            try {
                ferry = Ferry.init();
            } catch (RuntimeException e) {
                throw Errors.raise(ERRORS_RETURN, e);
            }
            COMM_WORLD.bind(ferry.world());
            COMM_SELF.bind(ferry.self());
            mainThread = Thread.currentThread();
            return args;
        }
    }

    /** {@link #Init}, asking for a thread level; Ferry gives {@link #THREAD_MULTIPLE} always. */
    public static int InitThread(String[] args, int required) {
        Init(args);
        return THREAD_MULTIPLE;
    }

    /** mpiJava's form of {@link #InitThread}. */
    public static String[] initThread(int required, int provided, String[] args) {
        return Init(args);
    }

    public static int queryThread() {
        return THREAD_MULTIPLE;
    }

    public static boolean isThreadMain() {
        return Thread.currentThread() == mainThread;
    }

    public static boolean isMainThread() {
        return isThreadMain();
    }

    /** Leaves the job; every rank calls it once, after its last MPI call. */
    public static void Finalize() {
        synchronized (LOCK) {
            if (ferry == null) {
                throw Errors.raise(COMM_WORLD.errhandler(), ERR_OTHER, finalized ? "MPI.Finalize: called twice" : "MPI.Finalize: MPI was not initialized");
            }
            try {
                leave(ferry.world());
                ferry.close();
            } catch (RuntimeException e) {
                throw Errors.raise(COMM_WORLD.errhandler(), e);
            } finally {
                ferry = null;
                finalized = true;
                COMM_WORLD.bind(null);
                COMM_SELF.bind(null);
            }
        }
    }

    /**
     * MPI_Finalize is collective: nobody leaves while a peer may still be at work, however long
     * it takes (a barrier on a communicator of its own). Ferry's close then exchanges goodbyes, so
     * that no rank closes while another is still in that barrier with it.
     */
    private static void leave(dev.ferry.Comm world) {
        world.dup().barrier();
    }

    public static boolean isInitialized() {
        synchronized (LOCK) {
            return ferry != null || finalized;
        }
    }

    public static boolean Initialized() {
        return isInitialized();
    }

    public static boolean isFinalized() {
        synchronized (LOCK) {
            return finalized;
        }
    }

    // --- environment ----------------------------------------------------------------------------------

    public static double wtime() {
        return Ferry.wtime();
    }

    public static double wtick() {
        return 1e-9;
    }

    public static double Wtime() {
        return wtime();
    }

    public static double Wtick() {
        return wtick();
    }

    public static Version getVersion() {
        return new Version(VERSION, SUBVERSION);
    }

    public static String getLibVersion() {
        return "Ferry " + (MPI.class.getPackage().getImplementationVersion() == null ? "0.1.0-SNAPSHOT" : MPI.class.getPackage().getImplementationVersion())
                + " (mpi: Open MPI Java bindings 4.1 and mpiJava 1.2 API)";
    }

    public static String getProcessorName() {
        synchronized (LOCK) {
            return ferry != null ? ferry.processorName() : hostName();
        }
    }

    public static String Get_processor_name() {
        return getProcessorName();
    }

    /** MPJ Express's process-wide error handler: sets COMM_WORLD's. */
    public static void Errorhandler_set(Errhandler errhandler) {
        COMM_WORLD.setErrhandler(errhandler);
    }

    public static Errhandler Errorhandler_get() {
        return COMM_WORLD.getErrhandler();
    }

    /**
     * Attaches the buffer that buffered sends ({@code bSend}, {@code Bsend}, {@code ibSend},
     * {@code bSendInit}) copy their messages into: each takes its packed size plus
     * {@link #BSEND_OVERHEAD} until it has gone (MPI_Buffer_attach).
     */
    public static void attachBuffer(byte[] buffer) {
        attach(buffer, "attachBuffer");
    }

    /** Waits until the buffered sends from the attached buffer have gone, and hands it back (null when none was attached). */
    public static byte[] detachBuffer() {
        Object b = detach("detachBuffer");
        return b instanceof ByteBuffer bb && bb.hasArray() ? bb.array() : b instanceof byte[] a ? a : null;
    }

    /** MPJ Express's {@link #attachBuffer}. */
    public static void Buffer_attach(ByteBuffer buffer) {
        attach(buffer, "Buffer_attach");
    }

    /** mpiJava 1.2's {@link #attachBuffer}. */
    public static void Buffer_attach(byte[] buffer) {
        attach(buffer, "Buffer_attach");
    }

    /** MPJ Express's {@link #detachBuffer}: waits until the buffered sends from the attached buffer have gone. */
    public static void Buffer_detach() {
        detach("Buffer_detach");
    }

    private static void attach(Object buffer, String what) {
        try {
            ferry(what).attachBuffer(buffer);
        } catch (RuntimeException e) {
            throw Errors.raise(COMM_WORLD.errhandler(), e);
        }
    }

    private static Object detach(String what) {
        try {
            return ferry(what).detachBuffer();
        } catch (RuntimeException e) {
            throw Errors.raise(COMM_WORLD.errhandler(), e);
        }
    }

    /** The running instance, or an error naming the call. */
    private static Ferry ferry(String what) {
        synchronized (LOCK) {
            if (ferry == null) {
                throw new MPIException(ERR_OTHER, "MPI." + what + ": MPI is " + (finalized ? "finalized" : "not initialized"));
            }
            return ferry;
        }
    }

    /** A profiling hook (MPI_Pcontrol): nothing to do. */
    public static void pControl(int level, Object obj) {
    }

    // --- buffers ------------------------------------------------------------------------------------

    public static ByteBuffer newByteBuffer(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    public static CharBuffer newCharBuffer(int capacity) {
        return newByteBuffer(capacity * 2).asCharBuffer();
    }

    public static ShortBuffer newShortBuffer(int capacity) {
        return newByteBuffer(capacity * 2).asShortBuffer();
    }

    public static IntBuffer newIntBuffer(int capacity) {
        return newByteBuffer(capacity * 4).asIntBuffer();
    }

    public static LongBuffer newLongBuffer(int capacity) {
        return newByteBuffer(capacity * 8).asLongBuffer();
    }

    public static FloatBuffer newFloatBuffer(int capacity) {
        return newByteBuffer(capacity * 4).asFloatBuffer();
    }

    public static DoubleBuffer newDoubleBuffer(int capacity) {
        return newByteBuffer(capacity * 8).asDoubleBuffer();
    }

    /** A view of {@code buf} from element {@code offset} (a communication buffer that starts further in). */
    public static ByteBuffer slice(ByteBuffer buf, int offset) {
        return buf.duplicate().clear().position(offset).slice().order(ByteOrder.nativeOrder());
    }

    public static CharBuffer slice(CharBuffer buf, int offset) {
        return buf.duplicate().clear().position(offset).slice();
    }

    public static ShortBuffer slice(ShortBuffer buf, int offset) {
        return buf.duplicate().clear().position(offset).slice();
    }

    public static IntBuffer slice(IntBuffer buf, int offset) {
        return buf.duplicate().clear().position(offset).slice();
    }

    public static LongBuffer slice(LongBuffer buf, int offset) {
        return buf.duplicate().clear().position(offset).slice();
    }

    public static FloatBuffer slice(FloatBuffer buf, int offset) {
        return buf.duplicate().clear().position(offset).slice();
    }

    public static DoubleBuffer slice(DoubleBuffer buf, int offset) {
        return buf.duplicate().clear().position(offset).slice();
    }

    public static ByteBuffer slice(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice().order(ByteOrder.nativeOrder());
    }

    public static CharBuffer slice(char[] buf, int offset) {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static ShortBuffer slice(short[] buf, int offset) {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static IntBuffer slice(int[] buf, int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static LongBuffer slice(long[] buf, int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static FloatBuffer slice(float[] buf, int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static DoubleBuffer slice(double[] buf, int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    // --- for the package ------------------------------------------------------------------------------

    static int comparison(Comparison c) {
        return switch (c) {
            case IDENT -> IDENT;
            case CONGRUENT -> CONGRUENT;
            case SIMILAR -> SIMILAR;
            case UNEQUAL -> UNEQUAL;
        };
    }

    static boolean isPredefined(Datatype t) {
        return t == BYTE || t == CHAR || t == SHORT || t == BOOLEAN || t == INT || t == LONG || t == FLOAT || t == DOUBLE || t == PACKED
                || t == FLOAT_COMPLEX || t == DOUBLE_COMPLEX || t == INT2 || t == SHORT_INT || t == LONG_INT || t == FLOAT_INT
                || t == DOUBLE_INT || t == SHORT2 || t == LONG2 || t == FLOAT2 || t == DOUBLE2 || t == OBJECT || t == LB || t == UB
                || t == DATATYPE_NULL;
    }

    /** The value of a predefined attribute key, or null for a key of the program's. */
    static Object predefinedAttribute(int keyval) {
        return switch (keyval) {
            case TAG_UB -> Ferry.TAG_UB;
            case HOST -> PROC_NULL;
            case IO -> ANY_SOURCE;
            case WTIME_IS_GLOBAL -> 0;
            case APPNUM -> 0;
            case LASTUSEDCODE -> ERR_LASTCODE;
            case UNIVERSE_SIZE -> COMM_WORLD.comm == null ? null : COMM_WORLD.comm.size();
            default -> null;
        };
    }

    private static volatile Map<Integer, String> errorNames;

    /** The name of error class {@code code} ("ERR_RANK"), or the number. */
    static String errorName(int code) {
        Map<Integer, String> m = errorNames;
        if (m == null) {
            m = new TreeMap<>();
            for (Field f : MPI.class.getFields()) {
                if (f.getType() == int.class && Modifier.isStatic(f.getModifiers()) && (f.getName().startsWith("ERR_") || f.getName().equals("SUCCESS"))) {
                    try {
                        m.putIfAbsent(f.getInt(null), f.getName());
                    } catch (IllegalAccessException e) {
                        throw new AssertionError(e);
                    }
                }
            }
            errorNames = m;
        }
        return m.getOrDefault(code, Integer.toString(code));
    }

    static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }

    /** Ends the whole job: the launcher sees this rank exit with {@code code} and stops the others. */
    static void abortJob(int code, String message, Throwable cause) {
        System.getLogger("mpi").log(System.Logger.Level.ERROR, message, cause);
        System.out.flush();
        System.exit(code == 0 ? 1 : code);
    }
}
