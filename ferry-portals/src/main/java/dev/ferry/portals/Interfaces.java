package dev.ferry.portals;

import static dev.ferry.portals.Portals.*;

/**
 * The network interfaces and the objects bound to them (library side): interface init and fini
 * with their limits and map, portal table entries, memory descriptors, event queues, counting
 * events and the limit on triggered operations. Every function here is called through the
 * dispatch, in the library's one thread of control.
 *
 * <pre>{@code
 * NiInitResult r = lib.interfaces.niInit(NI_MATCHING | NI_LOGICAL, PID_ANY, null);
 * }</pre>
 */
final class Interfaces {
    private final Library lib;

    Interfaces(Library lib) {
        this.lib = lib;
    }

    static NiLimits provided() {
        NiLimits l = new NiLimits();
        l.maxEntries = 1 << 20;
        l.maxUnexpectedHeaders = 1 << 20;
        l.maxMds = 1 << 20;
        l.maxCts = 1 << 16;
        l.maxEqs = 1 << 12;
        l.maxPtIndex = 255;
        l.maxIovecs = 1024;
        l.maxListSize = 1 << 20;
        l.maxTriggeredOps = 1 << 20;
        l.maxMsgSize = Long.MAX_VALUE;
        l.features = 0;
        return l;
    }

    NiInitResult niInit(int options, int pid, NiLimits desired) {
        int index = ((options & NI_MATCHING) != 0 ? 0 : 1) | ((options & NI_LOGICAL) != 0 ? 0 : 2);
        Ni existing = lib.nis[index];
        if (existing != null) {
            existing.refs++;
            return new NiInitResult(existing.handle, existing.limits.copy());
        }
        if (pid != PID_ANY && pid != lib.rank) {
            throw new PtlException(ReturnCode.PID_IN_USE, "this process's pid is " + lib.rank + " (its lib.rank in the job); asked for " + Integer.toUnsignedString(pid));
        }
        NiLimits l = provided();
        l.maxAtomicSize = lib.atomicMax;
        l.maxFetchAtomicSize = lib.atomicMax;
        l.maxWawOrderedSize = lib.inlineMax;
        l.maxWarOrderedSize = lib.inlineMax;
        l.maxVolatileSize = lib.inlineMax;
        if (desired != null) {
            // min(desired, provided) for every limit, as the reference implementation grants them
            // (a field left 0 asks for nothing: what is provided); then enforced as granted
            l.maxEntries = clamp(desired.maxEntries, l.maxEntries);
            l.maxUnexpectedHeaders = clamp(desired.maxUnexpectedHeaders, l.maxUnexpectedHeaders);
            l.maxMds = clamp(desired.maxMds, l.maxMds);
            l.maxCts = clamp(desired.maxCts, l.maxCts);
            l.maxEqs = clamp(desired.maxEqs, l.maxEqs);
            l.maxPtIndex = clamp(desired.maxPtIndex, l.maxPtIndex);
            l.maxIovecs = clamp(desired.maxIovecs, l.maxIovecs);
            l.maxListSize = clamp(desired.maxListSize, l.maxListSize);
            l.maxTriggeredOps = clamp(desired.maxTriggeredOps, l.maxTriggeredOps);
            l.maxMsgSize = clamp(desired.maxMsgSize, l.maxMsgSize);
            l.maxAtomicSize = clamp(desired.maxAtomicSize, l.maxAtomicSize);
            l.maxFetchAtomicSize = clamp(desired.maxFetchAtomicSize, l.maxFetchAtomicSize);
            l.maxWawOrderedSize = clamp(desired.maxWawOrderedSize, l.maxWawOrderedSize);
            l.maxWarOrderedSize = clamp(desired.maxWarOrderedSize, l.maxWarOrderedSize);
            l.maxVolatileSize = clamp(desired.maxVolatileSize, l.maxVolatileSize);
        }
        // a fetch-atomic or swap is an atomic too: the reference checks its length against
        // max_atomic_size, this library against max_fetch_atomic_size; granted no larger, both agree
        l.maxFetchAtomicSize = Math.min(l.maxFetchAtomicSize, l.maxAtomicSize);
        Ni ni = new Ni(lib, index, options, l);
        ni.map = new ProcessId[lib.size];
        ni.rankToEngine = new int[lib.size];
        ni.engineToRank = new int[lib.size];
        for (int r = 0; r < lib.size; r++) {
            ni.map[r] = ProcessId.ofPhys(lib.nid[r], r);
            ni.map[r].rank = r;
            ni.rankToEngine[r] = r;
            ni.engineToRank[r] = r;
        }
        lib.nis[index] = ni;
        return new NiInitResult(ni.handle, l.copy());
    }

    private static int clamp(int desired, int provided) {
        return desired > 0 && desired < provided ? desired : provided;
    }

    private static long clamp(long desired, long provided) {
        return desired > 0 && desired < provided ? desired : provided;
    }

    Void niFini(Ni ni) {
        if (--ni.refs > 0) {
            return null;
        }
        ni.closed = true;
        lib.directory.withdrawAll(ni);
        for (PtEntry p : ni.pt) {
            for (ListKind k : ListKind.values()) {
                for (ListEntry e : p.list(k)) {
                    e.linked = false;
                    lib.engine.memory().deregister(e.registration);
                }
                p.list(k).clear();
            }
            p.unexpected.removeContext(0, h -> { });
            p.allocated = false;
        }
        for (EventQueue q : ni.eqList) {
            q.freed = true;
        }
        for (Counter c : ni.ctList) {
            c.freed = true;
            lib.directory.freed(c);
        }
        lib.nis[ni.index] = null;
        return null;
    }

    Void setMap(Ni ni, ProcessId[] mapping, int mapSize) {
        if (!ni.logical) {
            throw Library.invalid("setMap needs a logically addressed interface, not the " + ni);
        }
        int[] r2e = new int[mapSize];
        int[] e2r = new int[lib.size];
        java.util.Arrays.fill(e2r, -1);
        ProcessId[] map = new ProcessId[mapSize];
        for (int r = 0; r < mapSize; r++) {
            ProcessId p = mapping[r];
            if (p == null) {
                throw Library.invalid("mapping[" + r + "] is null");
            }
            int pid = p.phys.pid;
            if (pid < 0 || pid >= lib.size || lib.nid[pid] != p.phys.nid) {
                throw Library.invalid("mapping[" + r + "]: no process " + p.phys + " in this job");
            }
            r2e[r] = pid;
            if (e2r[pid] < 0) {
                e2r[pid] = r;
            }
            map[r] = ProcessId.ofPhys(p.phys.nid, pid);
            map[r].rank = r;
        }
        ni.rankToEngine = r2e;
        ni.engineToRank = e2r;
        ni.map = map;
        return null;
    }

    GetMapResult getMap(Ni ni, int mapSize) {
        if (!ni.logical) {
            throw Library.invalid("getMap needs a logically addressed interface, not the " + ni);
        }
        int n = Math.min(mapSize, ni.map.length);
        ProcessId[] out = new ProcessId[n];
        for (int i = 0; i < n; i++) {
            out[i] = ni.map[i].copy();
        }
        return new GetMapResult(out, ni.map.length);
    }

    int ptAlloc(Ni ni, int options, EventQueue eq, int req) {
        if ((options & PT_FLOWCTRL) != 0 && eq == null) {
            throw new PtlException(ReturnCode.PT_EQ_NEEDED, "PT_FLOWCTRL needs an event queue, got EQ_NONE");
        }
        int index;
        if (req == PT_ANY) {
            index = -1;
            for (PtEntry p : ni.pt) {
                if (!p.allocated) {
                    index = p.index;
                    break;
                }
            }
            if (index < 0) {
                throw new PtlException(ReturnCode.PT_FULL, "all " + ni.pt.length + " portal table entries are allocated");
            }
        } else {
            if (req < 0 || req > ni.limits.maxPtIndex) {
                throw Library.invalid("pt_index " + Integer.toUnsignedString(req) + " is beyond max_pt_index " + ni.limits.maxPtIndex);
            }
            if (ni.pt[req].allocated) {
                throw new PtlException(ReturnCode.PT_IN_USE, "portal table entry " + req + " is allocated");
            }
            index = req;
        }
        PtEntry p = ni.pt[index];
        p.allocated = true;
        p.enabled = true;
        p.options = options;
        p.eq = eq;
        return index;
    }

    PtEntry pt(Ni ni, int index) {
        if (index < 0 || index >= ni.pt.length || !ni.pt[index].allocated) {
            throw Library.invalid("portal table entry " + Integer.toUnsignedString(index) + " is not allocated");
        }
        return ni.pt[index];
    }

    Void ptFree(Ni ni, int index) {
        PtEntry p = pt(ni, index);
        if (!p.priority.isEmpty() || !p.overflow.isEmpty()) {
            throw new PtlException(ReturnCode.PT_IN_USE, "portal table entry " + index + " still has " + (p.priority.size() + p.overflow.size()) + " list entries");
        }
        ni.unexpectedHeaders -= p.unexpected.size();
        p.unexpected.removeContext(0, h -> { });
        p.allocated = false;
        p.enabled = false;
        p.eq = null;
        return null;
    }

    Void ptEnable(Ni ni, int index, boolean on) {
        PtEntry p = pt(ni, index);
        p.enabled = on;
        lib.directory.republish(ni, p); // disabled: no peer reaches its entries directly any more once this returns
        return null;
    }

    MdHandle mdBind(Ni ni, Region region, int options, EventQueue eq, Counter ct) {
        if (ni.mds >= ni.limits.maxMds) {
            throw new PtlException(ReturnCode.NO_SPACE, "max_mds " + ni.limits.maxMds + " memory descriptors are bound");
        }
        MemDesc d = new MemDesc(ni, region, options, eq, ct);
        d.registration = region.validate(lib.engine);
        ni.mds++;
        return d.handle;
    }

    Void mdRelease(MemDesc d) {
        if (d.inFlight > 0) {
            throw new PtlException(ReturnCode.IN_USE, "memory descriptor " + d + " has " + d.inFlight + " operations in flight");
        }
        d.freed = true;
        d.ni.mds--;
        lib.engine.memory().deregister(d.registration);
        d.registration = null;
        return null;
    }

    EqHandle eqAlloc(Ni ni, long count) {
        if (ni.eqs >= ni.limits.maxEqs) {
            throw new PtlException(ReturnCode.NO_SPACE, "max_eqs " + ni.limits.maxEqs + " event queues are allocated");
        }
        if (count > 1 << 24) {
            throw new PtlException(ReturnCode.NO_SPACE, "an event queue of " + count + " events is too large (at most " + (1 << 24) + ")");
        }
        EventQueue q = new EventQueue(ni, (int) count);
        ni.eqs++;
        ni.eqList.add(q);
        return q.handle;
    }

    Void eqFree(EventQueue q) {
        for (PtEntry p : q.ni.pt) {
            if (p.allocated && p.eq == q) {
                throw new PtlException(ReturnCode.IN_USE, "event queue " + q + " is the queue of portal table entry " + p.index);
            }
        }
        q.freed = true;
        q.ni.eqs--;
        q.ni.eqList.remove(q);
        return null;
    }

    CtHandle ctAlloc(Ni ni) {
        if (ni.cts >= ni.limits.maxCts) {
            throw new PtlException(ReturnCode.NO_SPACE, "max_cts " + ni.limits.maxCts + " counting events are allocated");
        }
        Counter c = new Counter(ni);
        ni.cts++;
        ni.ctList.add(c);
        return c.handle;
    }

    Void ctFree(Counter c) {
        c.cancelTriggered();
        c.freed = true;
        lib.directory.freed(c);
        c.ni.cts--;
        c.ni.ctList.remove(c);
        return null;
    }

    private int triggeredOps(Ni ni) {
        int n = 0;
        for (Counter c : ni.ctList) {
            n += c.triggeredCount();
        }
        return n;
    }

    /** Adds a triggered operation (the caller checked its arguments). */
    Void trigger(Counter trig, long threshold, Runnable action) {
        if (triggeredOps(trig.ni) >= trig.ni.limits.maxTriggeredOps) {
            throw new PtlException(ReturnCode.NO_SPACE, "max_triggered_ops " + trig.ni.limits.maxTriggeredOps + " triggered operations are pending");
        }
        trig.addTriggered(threshold, action);
        if (trig.publishedEntries > 0) {
            lib.directory.triggered(trig); // what peers counted is all in now, and only the agent counts from now on
            trig.fire();
        }
        return null;
    }
}
