package dev.ferry.launch.pmi;

import java.nio.charset.StandardCharsets;

import static dev.ferry.launch.pmi.PmiWire.v2;

/**
 * The PMI-2 client (Slurm's {@code --mpi=pmi2}, Hydra): after a PMI-1 {@code init} that asked
 * for version 2, {@code fullinit}, {@code job-getid}, then {@code kvs-put} / {@code kvs-fence} /
 * {@code kvs-get}; {@code finalize} or {@code abort}.
 */
public final class Pmi2Client implements Bootstrap {
    /** PMI2_MAX_VALLEN and PMI2_MAX_KEYLEN of pmi2.h. */
    static final int MAX_VALUE = 1024;
    static final int MAX_KEY = 64;

    private final PmiTransport t;
    private final int rank;
    private final int size;
    private final String jobId;
    private boolean closed;

    /** @param pmiRank PMI_RANK (or PMI_ID) from the environment, or -1 */
    public Pmi2Client(PmiTransport t, int pmiRank) {
        this(t, null, pmiRank);
    }

    /**
     * @param pmiJobId PMI_JOBID from the environment, or null: Slurm's server refuses a fullinit
     *                 without it (as MPICH's client sends it); Hydra's ignores it
     * @param pmiRank  PMI_RANK (or PMI_ID) from the environment, or -1
     */
    public Pmi2Client(PmiTransport t, String pmiJobId, int pmiRank) {
        this.t = t;
        byte[] fullinit = pmiJobId == null
                ? v2("fullinit", "pmirank", String.valueOf(pmiRank), "threaded", "FALSE")
                : v2("fullinit", "pmijobid", pmiJobId, "pmirank", String.valueOf(pmiRank), "threaded", "FALSE");
        PmiWire.Message full = call(fullinit, "fullinit-response");
        rank = full.getInt("rank", -1);
        size = full.getInt("size", -1);
        if (rank < 0 || size < 1 || rank >= size) {
            throw new PmiException("PMI-2 fullinit gave rank " + rank + " and size " + size);
        }
        jobId = call(v2("job-getid"), "job-getid-response").get("jobid");
    }

    private PmiWire.Message read() {
        int len = PmiWire.parseV2Length(t.readExactly(PmiWire.V2_LENGTH_CHARS));
        return PmiWire.parseV2(new String(t.readExactly(len), StandardCharsets.US_ASCII));
    }

    private synchronized PmiWire.Message call(byte[] request, String response) {
        t.write(request);
        return Pmi1Client.expect(read(), response);
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
        return jobId;
    }

    @Override
    public String protocol() {
        return "pmi-2";
    }

    @Override
    public int maxValueLength() {
        return MAX_VALUE;
    }

    @Override
    public int maxKeyLength() {
        return MAX_KEY;
    }

    @Override
    public boolean wideUrlSupport() {
        return false;
    }

    @Override
    public void put(String key, String value) {
        call(v2("kvs-put", "key", key, "value", value), "kvs-put-response");
    }

    @Override
    public void fence() {
        call(v2("kvs-fence"), "kvs-fence-response");
    }

    @Override
    public synchronized String get(String key) {
        t.write(v2("kvs-get", "jobid", jobId, "srcid", "-1", "key", key));
        PmiWire.Message m = read();
        if (!m.cmd().equals("kvs-get-response")) {
            throw new PmiException("PMI-2: expected kvs-get-response, got " + m.cmd());
        }
        if (m.rc() != 0 || !"TRUE".equalsIgnoreCase(m.get("found"))) {
            return null;
        }
        return m.get("value");
    }

    @Override
    public synchronized void abort(int exitCode, String message) {
        String msg = message.replace(';', ',').replace('\n', ' ');
        t.write(v2("abort", "isworldabort", "TRUE", "msg", msg, "exitcode", String.valueOf(exitCode), "message", msg));
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            call(v2("finalize"), "finalize-response");
        } finally {
            t.close();
        }
    }
}
