package dev.ferry.driver.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Whether UCX is usable here, checked once per process before any JUCX class is touched: libucp
 * must load (through FFM, so a missing library is a message, not an UnsatisfiedLinkError deep in
 * JUCX), be of a version JUCX 1.12's {@code libjucx.so} links against (1.12 or newer within
 * major version 1), and then JUCX's own native library must load. The copy of it that JUCX
 * extracts is removed once loaded ({@link JucxCopies}).
 *
 * <p>Also the one place that calls libucp directly: its version and the {@code ucp_*_print_info}
 * reports (what UCX chose), captured through {@code open_memstream}.
 */
final class UcxLibrary {
    /** libucp's soname on Linux. */
    static final String LIBUCP = "libucp.so.0";
    /** Oldest libucp that JUCX 1.12.1's native library works with. */
    static final int MIN_MINOR = 12;

    private static final Result RESULT = check();

    private record Result(String version, String problem, SymbolLookup ucp) {
    }

    private UcxLibrary() {
    }

    /** Null when UCX is usable, else why not (one line). */
    static String problem() {
        return RESULT.problem;
    }

    /** libucp's version string ("1.13.1"), or null when it did not load. */
    /**
     * UCX installs its own handlers for SIGSEGV, SIGBUS, SIGILL and SIGFPE when libucs loads
     * (UCX_ERROR_SIGNALS), which steals the signals the JVM raises on purpose (an implicit null
     * check is a SIGSEGV the JVM handles): the JVM then dies in UCX's handler. So, before libucp
     * loads, UCX_ERROR_SIGNALS is set empty in this process's environment, unless the user set it.
     */
    private static void keepJvmSignals() {
        try (Arena a = Arena.ofConfined()) {
            Linker l = Linker.nativeLinker();
            MethodHandle setenv = l.downcallHandle(l.defaultLookup().find("setenv").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
            int rc = (int) setenv.invokeExact(a.allocateFrom("UCX_ERROR_SIGNALS"), a.allocateFrom(""), 0);
            if (rc != 0) {
                System.getLogger(UcxLibrary.class.getName()).log(System.Logger.Level.WARNING, "ucx: setenv(UCX_ERROR_SIGNALS) failed");
            }
        } catch (Throwable e) {
            System.getLogger(UcxLibrary.class.getName()).log(System.Logger.Level.WARNING, "ucx: could not keep UCX off the JVM's signals: " + e);
        }
    }

    static String version() {
        return RESULT.version;
    }

    private static Result check() {
        keepJvmSignals();
        SymbolLookup ucp;
        try {
            ucp = SymbolLookup.libraryLookup(LIBUCP, Arena.global());
        } catch (IllegalArgumentException | IllegalCallerException e) {
            return new Result(null, "UCX is not installed: " + LIBUCP + " does not load (" + e.getMessage()
                    + "); on Debian: apt-get install libucx0", null);
        }
        String version;
        int major, minor;
        try (Arena a = Arena.ofConfined()) {
            MethodHandle getVersion = Linker.nativeLinker().downcallHandle(ucp.find("ucp_get_version").orElseThrow(),
                    FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            MemorySegment v = a.allocate(ValueLayout.JAVA_INT, 3);
            getVersion.invokeExact(v, v.asSlice(4), v.asSlice(8));
            major = v.getAtIndex(ValueLayout.JAVA_INT, 0);
            minor = v.getAtIndex(ValueLayout.JAVA_INT, 1);
            version = major + "." + minor + "." + v.getAtIndex(ValueLayout.JAVA_INT, 2);
        } catch (Throwable e) {
            return new Result(null, LIBUCP + " loads but ucp_get_version fails: " + e, ucp);
        }
        if (major != 1 || minor < MIN_MINOR) {
            return new Result(version, "UCX " + version + " is too old or too new for JUCX 1.12.1 (needs 1." + MIN_MINOR
                    + " or newer within 1.x)", ucp);
        }
        try {
            org.openucx.jucx.NativeLibs.load();
        } catch (UnsatisfiedLinkError | ExceptionInInitializerError | NoClassDefFoundError e) {
            return new Result(version, "JUCX's native library does not load against UCX " + version + ": " + e.getMessage(), ucp);
        }
        // JUCX leaves its extracted copy of libjucx.so behind whenever a process is killed
        JucxCopies.removeLoaded(JucxCopies.mappedFiles(), JucxCopies.tmpDir());
        JucxCopies.sweepStale(JucxCopies.tmpDir(), JucxCopies.STALE, java.time.Instant.now());
        return new Result(version, null, ucp);
    }

    /**
     * What {@code ucp_context_print_info}, {@code ucp_worker_print_info} or
     * {@code ucp_ep_print_info} prints for the native handle, as text.
     */
    static String printInfo(String function, long handle) {
        if (RESULT.ucp == null) {
            return "";
        }
        Linker l = Linker.nativeLinker();
        SymbolLookup std = l.defaultLookup();
        try (Arena a = Arena.ofConfined()) {
            MethodHandle openMemstream = l.downcallHandle(std.find("open_memstream").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            MethodHandle fclose = l.downcallHandle(std.find("fclose").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
            MethodHandle free = l.downcallHandle(std.find("free").orElseThrow(), FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
            MethodHandle print = l.downcallHandle(RESULT.ucp.find(function).orElseThrow(),
                    FunctionDescriptor.ofVoid(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
            MemorySegment bufPtr = a.allocate(ValueLayout.ADDRESS);
            MemorySegment sizePtr = a.allocate(ValueLayout.JAVA_LONG);
            MemorySegment file = (MemorySegment) openMemstream.invokeExact(bufPtr, sizePtr);
            if (file.equals(MemorySegment.NULL)) {
                return "";
            }
            print.invokeExact(handle, file);
            int rc = (int) fclose.invokeExact(file);
            MemorySegment buf = bufPtr.get(ValueLayout.ADDRESS, 0);
            long n = sizePtr.get(ValueLayout.JAVA_LONG, 0);
            String text = new String(buf.reinterpret(n).toArray(ValueLayout.JAVA_BYTE), java.nio.charset.StandardCharsets.UTF_8);
            free.invokeExact(buf);
            return rc == 0 ? text : "";
        } catch (Throwable e) {
            return "(" + function + " failed: " + e + ")";
        }
    }
}
