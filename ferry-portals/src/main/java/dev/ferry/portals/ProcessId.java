package dev.ferry.portals;

/**
 * ptl_process_t: a process, by its logical {@link #rank} (on a logically addressed interface)
 * or by its physical {@link #phys} node and process ids. A mutable structure like the C union;
 * both views are kept, the interface's addressing mode says which one counts.
 *
 * <pre>{@code
 * ProcessId target = ProcessId.ofRank(3);                 // logical
 * ProcessId there  = ProcessId.ofPhys(nid, pid);          // physical
 * }</pre>
 */
public final class ProcessId {
    /** The physical view: node id and process id. */
    public static final class Phys {
        public int nid;
        public int pid;


        @Override
        public boolean equals(Object o) {
            return o instanceof Phys p && p.nid == nid && p.pid == pid;
        }

        @Override
        public int hashCode() {
            return nid * 31 + pid;
        }

        @Override
        public String toString() {
            return "nid " + Integer.toUnsignedString(nid) + " pid " + Integer.toUnsignedString(pid);
        }
    }

    /** The logical view: a rank in the map of the interface. */
    public int rank;
    /** The physical view. */
    public final Phys phys = new Phys();

    public ProcessId() {
    }

    public static ProcessId ofRank(int rank) {
        ProcessId p = new ProcessId();
        p.rank = rank;
        return p;
    }

    public static ProcessId ofPhys(int nid, int pid) {
        ProcessId p = new ProcessId();
        p.phys.nid = nid;
        p.phys.pid = pid;
        return p;
    }

    ProcessId copy() {
        ProcessId p = new ProcessId();
        p.rank = rank;
        p.phys.nid = phys.nid;
        p.phys.pid = phys.pid;
        return p;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProcessId p && p.rank == rank && p.phys.nid == phys.nid && p.phys.pid == phys.pid;
    }

    @Override
    public int hashCode() {
        return rank * 31 + phys.nid * 17 + phys.pid;
    }

    @Override
    public String toString() {
        return "{rank " + Integer.toUnsignedString(rank) + ", " + phys + "}";
    }
}
