package dev.ferry.launch.pmi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The PMIx client calls Ferry makes, downcalls into the system's libpmix (Debian's libpmix2)
 * through FFM: init, put, commit, fence, get, abort, finalize, and what frees a value.
 *
 * <pre>{@code
 * PmixCalls pmix = PmixCalls.load();      // PmiException when libpmix is not installed
 * int rc = pmix.init(proc);
 * }</pre>
 */
final class PmixCalls {
    /** The library's names, most specific first. */
    static final String[] LIBRARY = {"libpmix.so.2", "libpmix.so"};

    private final MethodHandle init;
    private final MethodHandle finalizeCall;
    private final MethodHandle put;
    private final MethodHandle commit;
    private final MethodHandle fence;
    private final MethodHandle get;
    private final MethodHandle abort;
    private final MethodHandle errorString;
    private final MethodHandle valueDestruct;
    private final MethodHandle free;

    private PmixCalls(SymbolLookup lib) {
        Linker linker = Linker.nativeLinker();
        init = bind(linker, lib, "PMIx_Init", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
        finalizeCall = bind(linker, lib, "PMIx_Finalize", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        put = bind(linker, lib, "PMIx_Put", FunctionDescriptor.of(JAVA_INT, JAVA_BYTE, ADDRESS, ADDRESS));
        commit = bind(linker, lib, "PMIx_Commit", FunctionDescriptor.of(JAVA_INT));
        fence = bind(linker, lib, "PMIx_Fence", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));
        get = bind(linker, lib, "PMIx_Get", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS));
        abort = bind(linker, lib, "PMIx_Abort", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
        errorString = bind(linker, lib, "PMIx_Error_string", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        valueDestruct = bind(linker, lib, "PMIx_Value_destruct", FunctionDescriptor.ofVoid(ADDRESS));
        free = bind(linker, linker.defaultLookup(), "free", FunctionDescriptor.ofVoid(ADDRESS));
    }

    /** Loads libpmix; a PmiException naming what was tried when it is not there. */
    static PmixCalls load() {
        IllegalArgumentException last = null;
        for (String name : LIBRARY) {
            try {
                return new PmixCalls(SymbolLookup.libraryLookup(name, Arena.global()));
            } catch (IllegalArgumentException e) {
                last = e;
            }
        }
        throw new PmiException("the PMIx client library (" + String.join(" or ", LIBRARY) + ") cannot be loaded: "
                + (last == null ? "" : last.getMessage()) + "; install it (Debian: libpmix2)");
    }

    private static MethodHandle bind(Linker linker, SymbolLookup lib, String name, FunctionDescriptor d) {
        MemorySegment f = lib.find(name).orElseThrow(() -> new PmiException("libpmix has no " + name + ": not a PMIx 4 library"));
        return linker.downcallHandle(f, d);
    }

    int init(MemorySegment proc) {
        try {
            return (int) init.invokeExact(proc, MemorySegment.NULL, 0L);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    int finish() {
        try {
            return (int) finalizeCall.invokeExact(MemorySegment.NULL, 0L);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    int put(byte scope, MemorySegment key, MemorySegment value) {
        try {
            return (int) put.invokeExact(scope, key, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    int commit() {
        try {
            return (int) commit.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A fence over the whole namespace (no procs), with the given infos. */
    int fence(MemorySegment infos, long count) {
        try {
            return (int) fence.invokeExact(MemorySegment.NULL, 0L, infos, count);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code out} receives a pmix_value_t* the caller frees with {@link #release}. */
    int get(MemorySegment proc, MemorySegment key, MemorySegment out) {
        try {
            return (int) get.invokeExact(proc, key, MemorySegment.NULL, 0L, out);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    int abort(int status, MemorySegment message) {
        try {
            return (int) abort.invokeExact(status, message, MemorySegment.NULL, 0L);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** PMIx's name of a status, e.g. "PMIX_ERR_NOT_FOUND". */
    String error(int status) {
        try {
            MemorySegment s = (MemorySegment) errorString.invokeExact(status);
            return s.equals(MemorySegment.NULL) ? "status " + status : s.reinterpret(256).getString(0) + " (" + status + ")";
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Frees a value PMIx_Get allocated (PMIX_VALUE_RELEASE). */
    void release(MemorySegment value) {
        try {
            valueDestruct.invokeExact(value);
            free.invokeExact(value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
