package dev.ferry.portals;

/**
 * A bound memory descriptor (library side): its memory (validated and registered at bind, seed
 * 003's validate), its options, event queue and counting event, and how many operations still
 * use it (release answers IN_USE until they are done).
 *
 * <pre>{@code
 * MemDesc d = new MemDesc(ni, region, options, eq, ct);
 * }</pre>
 */
final class MemDesc {
    final Ni ni;
    final Region region;
    final int options;
    final EventQueue eq;
    final Counter ct;
    final MdHandle handle;
    Object registration;
    int inFlight;
    boolean freed;

    MemDesc(Ni ni, Region region, int options, EventQueue eq, Counter ct) {
        this.ni = ni;
        this.region = region;
        this.options = options;
        this.eq = eq;
        this.ct = ct;
        this.handle = new MdHandle(this);
    }

    @Override
    public String toString() {
        return "#" + System.identityHashCode(this) + " of " + region.length() + " bytes";
    }
}
