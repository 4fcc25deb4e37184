package dev.ferry.portals;

import java.util.ArrayList;
import java.util.List;

/**
 * A network interface (library side): its kind (matching or not, logical or physical), limits,
 * portal table, map of logical ranks, status registers, and the objects bound to it.
 *
 * <pre>{@code
 * Ni ni = new Ni(library, index, options, limits);
 * }</pre>
 */
final class Ni {
    final Library lib;
    final int index;
    final int options;
    final boolean matching;
    final boolean logical;
    final NiLimits limits;
    final NiHandle handle;
    final PtEntry[] pt;
    /** Logical rank -> engine rank (seed 003's gidrid2nidpid); engine rank -> logical rank. */
    int[] rankToEngine;
    int[] engineToRank;
    ProcessId[] map;
    final int[] status = new int[3];
    int refs = 1;
    boolean closed;
    int entries;
    int mds;
    int cts;
    int eqs;
    int unexpectedHeaders;
    int bundles;
    final List<EventQueue> eqList = new ArrayList<>();
    final List<Counter> ctList = new ArrayList<>();

    Ni(Library lib, int index, int options, NiLimits limits) {
        this.lib = lib;
        this.index = index;
        this.options = options;
        this.matching = (options & Portals.NI_MATCHING) != 0;
        this.logical = (options & Portals.NI_LOGICAL) != 0;
        this.limits = limits;
        this.handle = new NiHandle(this);
        this.pt = new PtEntry[limits.maxPtIndex + 1];
        for (int i = 0; i < pt.length; i++) {
            pt[i] = new PtEntry(i);
        }
    }

    @Override
    public String toString() {
        return (matching ? "matching" : "non-matching") + " " + (logical ? "logical" : "physical") + " interface";
    }
}
