package dev.ferry.portals;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Codes read off a peer's header: every valid index decodes, anything else is null (the header is dropped), never an exception. */
class WireCodesTest {
    @Test
    void validIndexesDecodeToTheirConstants() {
        for (NiFail f : NiFail.values()) {
            assertEquals(f, NiFail.fromWire(f.ordinal()));
        }
        for (ListKind k : ListKind.values()) {
            assertEquals(k, ListKind.fromWire(k.ordinal()));
        }
        for (Op o : Op.values()) {
            assertEquals(o, Op.fromWire(o.ordinal()));
        }
        for (Datatype d : Datatype.values()) {
            assertEquals(d, Datatype.fromWire(d.ordinal()));
        }
    }

    @Test
    void outOfRangeIndexesAreNull() {
        assertNull(NiFail.fromWire(NiFail.values().length));
        assertNull(ListKind.fromWire(-1));
        assertNull(Op.fromWire(255));
        assertNull(Datatype.fromWire(Datatype.values().length));
    }
}
