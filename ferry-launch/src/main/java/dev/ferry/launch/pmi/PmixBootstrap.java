package dev.ferry.launch.pmi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The bootstrap under a PMIx launcher ({@code srun --mpi=pmix}, Open MPI's {@code mpirun},
 * {@code prterun}): the PMIx client library through FFM. Rank, size, job (namespace) and host
 * come from PMIx itself. PMIx keeps each value with the rank that put it, while Ferry's bootstrap
 * offers PMI's one shared space, so each rank puts everything of a fence round as one value
 * ({@link PairBlob}, key {@code ferry.kvs.N} for round N), the fence collects them, and a rank
 * reads every rank's value of the rounds it has not read yet at its first lookup after a fence
 * (from the local store the collecting fence filled: no message).
 *
 * <pre>{@code
 * try (Bootstrap boot = new PmixBootstrap()) {    // under srun --mpi=pmix or mpirun
 *     boot.put("node." + boot.rank(), NodeId.current());
 *     boot.fence();
 *     String other = boot.get("node.0");
 * }
 * }</pre>
 */
public final class PmixBootstrap implements Bootstrap {
    /** Longest value: PMIx has no small limit; this only bounds what one key holds in the blob. */
    static final int MAX_VALUE = 1 << 20;

    private final PmixCalls pmix;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment self;
    private final MemorySegment other;
    private final int rank;
    private final int size;
    private final String nspace;
    private final String host;
    private final Map<String, String> pending = new LinkedHashMap<>();
    private final Map<String, String> known = new HashMap<>();
    private int rounds;
    private int roundsRead;
    private boolean closed;

    /** Initialises the PMIx client: a PmiException naming what failed when it cannot. */
    public PmixBootstrap() {
        this.pmix = PmixCalls.load();
        this.self = arena.allocate(PmixLayout.PROC_BYTES, 8);
        int rc = pmix.init(self);
        if (rc != PmixLayout.PMIX_SUCCESS) {
            arena.close();
            throw new PmiException("PMIx_Init failed: " + pmix.error(rc) + " (is the launcher's PMIx server reachable? PMIX_SERVER_URI*)");
        }
        this.nspace = self.getString(PmixLayout.PROC_NSPACE);
        this.rank = self.get(ValueLayout.JAVA_INT, PmixLayout.PROC_RANK);
        this.other = arena.allocate(PmixLayout.PROC_BYTES, 8);
        other.setString(PmixLayout.PROC_NSPACE, nspace);
        this.size = (int) uint32(PmixLayout.RANK_WILDCARD, PmixLayout.JOB_SIZE);
        if (rank < 0 || size < 1 || rank >= size) {
            throw new PmiException("PMIx gave rank " + rank + " and job size " + size + " in namespace " + nspace);
        }
        this.host = string(rank, PmixLayout.HOSTNAME);
    }

    /** Whether the environment names a PMIx server: the launcher speaks PMIx. */
    static boolean present(Map<String, String> env) {
        return env.containsKey("PMIX_NAMESPACE") || env.containsKey("PMIX_RANK");
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public String jobId() {
        return nspace;
    }

    @Override
    public String protocol() {
        return "pmix";
    }

    @Override
    public int maxValueLength() {
        return MAX_VALUE;
    }

    @Override
    public int maxKeyLength() {
        return PmixLayout.KEY_MAX;
    }

    @Override
    public boolean wideUrlSupport() {
        return true;
    }

    /** The launcher's name of this rank's host (PMIX_HOSTNAME), or null when it gives none. */
    @Override
    public String node() {
        return host;
    }

    @Override
    public synchronized void put(String key, String value) {
        checkOpen();
        pending.put(key, value);
        known.put(key, value);
    }

    @Override
    public synchronized void fence() {
        checkOpen();
        rounds++;
        try (Arena a = Arena.ofConfined()) {
            byte[] blob = PairBlob.encode(pending);
            MemorySegment value = a.allocate(PmixLayout.VALUE_BYTES, 8);
            value.set(ValueLayout.JAVA_SHORT, PmixLayout.VALUE_TYPE, PmixLayout.PMIX_BYTE_OBJECT);
            MemorySegment bytes = a.allocate(Math.max(1, blob.length));
            MemorySegment.copy(blob, 0, bytes, ValueLayout.JAVA_BYTE, 0, blob.length);
            value.set(ValueLayout.ADDRESS, PmixLayout.VALUE_DATA, bytes);
            value.set(ValueLayout.JAVA_LONG, PmixLayout.VALUE_DATA_SIZE, blob.length);
            check(pmix.put(PmixLayout.PMIX_GLOBAL, a.allocateFrom(roundKey(rounds)), value), "PMIx_Put");
            check(pmix.commit(), "PMIx_Commit");
            MemorySegment info = a.allocate(PmixLayout.INFO_BYTES, 8);
            info.setString(PmixLayout.INFO_KEY, PmixLayout.COLLECT_DATA);
            info.set(ValueLayout.JAVA_SHORT, PmixLayout.INFO_VALUE + PmixLayout.VALUE_TYPE, PmixLayout.PMIX_BOOL);
            info.set(ValueLayout.JAVA_BYTE, PmixLayout.INFO_VALUE + PmixLayout.VALUE_DATA, (byte) 1);
            check(pmix.fence(info, 1), "PMIx_Fence");
        }
        pending.clear();
    }

    @Override
    public synchronized String get(String key) {
        checkOpen();
        if (roundsRead < rounds) {
            for (int n = roundsRead + 1; n <= rounds; n++) {
                for (int r = 0; r < size; r++) {
                    known.putAll(PairBlob.decode(bytes(r, roundKey(n))));
                }
            }
            roundsRead = rounds;
        }
        return known.get(key);
    }

    private static String roundKey(int n) {
        return "ferry.kvs." + n;
    }

    @Override
    public synchronized void abort(int exitCode, String message) {
        if (closed) {
            return;
        }
        try (Arena a = Arena.ofConfined()) {
            pmix.abort(exitCode, a.allocateFrom(message));
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            check(pmix.finish(), "PMIx_Finalize");
        } finally {
            arena.close();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the PMIx bootstrap is closed");
        }
    }

    private void check(int rc, String call) {
        if (rc != PmixLayout.PMIX_SUCCESS) {
            throw new PmiException(call + " failed on rank " + rank + ": " + pmix.error(rc));
        }
    }

    // ---- reading values: one PMIx_Get each, the value freed as PMIX_VALUE_RELEASE does ----------

    private long uint32(int of, String key) {
        return read(of, key, v -> {
            short type = v.get(ValueLayout.JAVA_SHORT, PmixLayout.VALUE_TYPE);
            if (type != PmixLayout.PMIX_UINT32) {
                throw new PmiException("PMIx: " + key + " has type " + type + ", not PMIX_UINT32");
            }
            return Integer.toUnsignedLong(v.get(ValueLayout.JAVA_INT, PmixLayout.VALUE_DATA));
        }, true);
    }

    private String string(int of, String key) {
        return read(of, key, v -> v.get(ValueLayout.JAVA_SHORT, PmixLayout.VALUE_TYPE) == PmixLayout.PMIX_STRING
                ? v.get(ValueLayout.ADDRESS, PmixLayout.VALUE_DATA).reinterpret(Integer.MAX_VALUE).getString(0) : null, false);
    }

    private byte[] bytes(int of, String key) {
        return read(of, key, v -> {
            short type = v.get(ValueLayout.JAVA_SHORT, PmixLayout.VALUE_TYPE);
            if (type != PmixLayout.PMIX_BYTE_OBJECT) {
                throw new PmiException("PMIx: rank " + of + "'s " + key + " has type " + type + ", not PMIX_BYTE_OBJECT");
            }
            long n = v.get(ValueLayout.JAVA_LONG, PmixLayout.VALUE_DATA_SIZE);
            return n == 0 ? new byte[0] : v.get(ValueLayout.ADDRESS, PmixLayout.VALUE_DATA).reinterpret(n).toArray(ValueLayout.JAVA_BYTE);
        }, true);
    }

    private <T> T read(int of, String key, java.util.function.Function<MemorySegment, T> decode, boolean required) {
        try (Arena a = Arena.ofConfined()) {
            other.set(ValueLayout.JAVA_INT, PmixLayout.PROC_RANK, of);
            MemorySegment out = a.allocate(ValueLayout.ADDRESS);
            int rc = pmix.get(other, a.allocateFrom(key), out);
            if (rc != PmixLayout.PMIX_SUCCESS) {
                if (!required) {
                    return null;
                }
                throw new PmiException("PMIx_Get of " + key + " for " + (of == PmixLayout.RANK_WILDCARD ? "the job" : "rank " + of) + " failed: " + pmix.error(rc));
            }
            MemorySegment v = out.get(ValueLayout.ADDRESS, 0).reinterpret(PmixLayout.VALUE_BYTES);
            try {
                return decode.apply(v);
            } finally {
                pmix.release(v);
            }
        }
    }
}
