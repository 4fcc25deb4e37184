package dev.ferry.launch.pmi;

import static dev.ferry.launch.pmi.PmiWire.parseV1;
import static dev.ferry.launch.pmi.PmiWire.v1;

/**
 * The PMI-1 client: MPICH simple-PMI wire protocol, over an inherited descriptor or a socket.
 * Conversation: [initack, when started with PMI_ID in port mode], init, get_maxes, get_my_kvsname;
 * then put / barrier_in / get; finalize or abort.
 */
public final class Pmi1Client implements Bootstrap {
    private final PmiTransport t;
    private int rank;
    private int size;
    private final String kvsname;
    private final int maxKey;
    private final int maxValue;
    private boolean closed;

    /**
     * @param pmiId       PMI_ID for port mode (the initack exchange), or -1
     * @param envRank     PMI_RANK, or -1 when the initack gives it
     * @param envSize     PMI_SIZE, or -1 when the initack gives it
     * @param initialized true when a version negotiation already did the init exchange at version 1
     */
    public Pmi1Client(PmiTransport t, int pmiId, int envRank, int envSize, boolean initialized) {
        this.t = t;
        this.rank = envRank;
        this.size = envSize;
        if (pmiId >= 0) {
            t.writeAscii(v1("initack", "pmiid", String.valueOf(pmiId)));
            expect(parseV1(t.readLine()), "initack");
            for (int i = 0; i < 3; i++) { // cmd=set size=N, cmd=set rank=R, cmd=set debug=D
                PmiWire.Message set = expect(parseV1(t.readLine()), "set");
                if (set.get("size") != null) {
                    size = set.getInt("size", -1);
                } else if (set.get("rank") != null) {
                    rank = set.getInt("rank", -1);
                }
            }
        }
        if (!initialized) {
            t.writeAscii(v1("init", "pmi_version", "1", "pmi_subversion", "1"));
            expect(parseV1(t.readLine()), "response_to_init");
        }
        if (rank < 0 || size < 1 || rank >= size) {
            throw new PmiException("PMI-1 gave rank " + rank + " and size " + size);
        }
        t.writeAscii(v1("get_maxes"));
        PmiWire.Message maxes = expect(parseV1(t.readLine()), "maxes");
        maxKey = maxes.getInt("keylen_max", 64);
        maxValue = maxes.getInt("vallen_max", 1024);
        t.writeAscii(v1("get_my_kvsname"));
        kvsname = expect(parseV1(t.readLine()), "my_kvsname").get("kvsname");
    }

    static PmiWire.Message expect(PmiWire.Message m, String cmd) {
        if (!m.cmd().equals(cmd)) {
            throw new PmiException("PMI: expected cmd=" + cmd + ", got cmd=" + m.cmd() + " " + m.attrs());
        }
        if (m.rc() != 0) {
            throw new PmiException("PMI: cmd=" + cmd + " failed with rc=" + m.rc() + " " + m.attrs());
        }
        return m;
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
        return kvsname;
    }

    @Override
    public String protocol() {
        return "pmi-1";
    }

    @Override
    public int maxValueLength() {
        return maxValue;
    }

    @Override
    public int maxKeyLength() {
        return maxKey;
    }

    @Override
    public boolean wideUrlSupport() {
        return true;
    }

    @Override
    public synchronized void put(String key, String value) {
        t.writeAscii(v1("put", "kvsname", kvsname, "key", key, "value", value));
        expect(parseV1(t.readLine()), "put_result");
    }

    @Override
    public synchronized void fence() {
        t.writeAscii(v1("barrier_in"));
        expect(parseV1(t.readLine()), "barrier_out");
    }

    @Override
    public synchronized String get(String key) {
        t.writeAscii(v1("get", "kvsname", kvsname, "key", key));
        PmiWire.Message m = parseV1(t.readLine());
        if (!m.cmd().equals("get_result")) {
            throw new PmiException("PMI: expected cmd=get_result, got cmd=" + m.cmd());
        }
        if (m.rc() != 0 || "false".equalsIgnoreCase(m.get("found"))) {
            return null; // rc=-1 msg=key_... : not found
        }
        return m.get("value");
    }

    @Override
    public synchronized void abort(int exitCode, String message) {
        t.writeAscii(v1("abort", "exitcode", String.valueOf(exitCode)));
        // the launcher ends the job; should it not, this process goes with the code anyway
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            t.writeAscii(v1("finalize"));
            expect(parseV1(t.readLine()), "finalize_ack");
        } finally {
            t.close();
        }
    }
}
