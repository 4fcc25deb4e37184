package dev.ferry.portals;

/**
 * The handles a Portals call is given, resolved to the library's objects and checked: first that
 * the library is open (NO_INIT comes before any other answer), then that the handle names a live
 * object of this library (ARG_INVALID naming the handle otherwise: null, freed, released,
 * finalized, of another interface, or of another library).
 *
 * <pre>{@code
 * MemDesc d = handles.md(mdHandle);
 * Counter c = handles.ct(ctHandle, d.ni, true);   // CT_NONE allowed: null
 * }</pre>
 */
final class Handles {
    private final LibraryCalls library;

    Handles(LibraryCalls library) {
        this.library = library;
    }

    Ni ni(NiHandle h) {
        Library l = library.lib();
        if (h == null || h.target == null) {
            throw Library.invalid("the network interface handle is " + (h == null ? "null" : "not a network interface"));
        }
        Ni ni = (Ni) h.target;
        mine(ni, l);
        if (ni.closed) {
            throw Library.invalid("the network interface was finalized (niFini)");
        }
        return ni;
    }

    /** ARG_INVALID when {@code ni} belongs to another library (another instance, or one finalized since). */
    private static void mine(Ni ni, Library l) {
        if (ni.lib != l) {
            throw Library.invalid("the handle belongs to another Portals library (another instance, or one finalized since)");
        }
    }

    MemDesc md(MdHandle h) {
        Library l = library.lib();
        if (h == null || h.target == null) {
            throw Library.invalid("the memory descriptor handle is null");
        }
        MemDesc d = (MemDesc) h.target;
        mine(d.ni, l);
        if (d.freed || d.ni.closed) {
            throw Library.invalid("the memory descriptor was released");
        }
        return d;
    }

    ListEntry entry(Handle h, String what) {
        Library l = library.lib();
        if (h == null || h.target == null) {
            throw Library.invalid("the " + what + " handle is null");
        }
        ListEntry e = (ListEntry) h.target;
        mine(e.ni, l);
        if (e.ni.closed) {
            throw Library.invalid("the " + what + "'s network interface was finalized");
        }
        return e;
    }

    /** An event queue handle, or null for EQ_NONE; must belong to {@code ni} when given. */
    EventQueue eq(EqHandle h, Ni ni, boolean noneAllowed) {
        Library l = library.lib();
        if (h == null) {
            throw Library.invalid("the event queue handle is null (use EQ_NONE)");
        }
        if (h.target == null) {
            if (!noneAllowed) {
                throw Library.invalid("EQ_NONE is not an event queue");
            }
            return null;
        }
        EventQueue q = (EventQueue) h.target;
        mine(q.ni, l);
        if (q.freed) {
            throw Library.invalid("the event queue was freed");
        }
        if (ni != null && q.ni != ni) {
            throw Library.invalid("the event queue belongs to the " + q.ni + ", not to the " + ni);
        }
        return q;
    }

    Counter ct(CtHandle h, Ni ni, boolean noneAllowed) {
        Library l = library.lib();
        if (h == null) {
            throw Library.invalid("the counting event handle is null (use CT_NONE)");
        }
        if (h.target == null) {
            if (!noneAllowed) {
                throw Library.invalid("CT_NONE is not a counting event");
            }
            return null;
        }
        Counter c = (Counter) h.target;
        mine(c.ni, l);
        if (c.freed) {
            throw Library.invalid("the counting event was freed");
        }
        if (ni != null && c.ni != ni) {
            throw Library.invalid("the counting event belongs to the " + c.ni + ", not to the " + ni);
        }
        return c;
    }
}
