package dev.ferry;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A status's count in elements: whole elements of any size, UNDEFINED for a part of one. */
class StatusTest {
    @Test
    void countsWholeElementsOfPowerOfTwoAndOtherSizes() {
        assertEquals(8, Status.elements(8, 1));
        assertEquals(2, Status.elements(16, 8));
        assertEquals(Ferry.UNDEFINED, Status.elements(12, 8));
        assertEquals(Ferry.UNDEFINED, Status.elements(6, 4));
        assertEquals(3, Status.elements(36, 12)); // a struct of 12 bytes
        assertEquals(Ferry.UNDEFINED, Status.elements(30, 12));
        assertEquals(0, Status.elements(0, 4));
        assertEquals(0, Status.elements(40, 0)); // a type of no bytes
        assertEquals(Integer.MAX_VALUE, Status.elements(1L << 40, 2));
        assertEquals(Integer.MAX_VALUE, Status.elements(3L << 40, 3));
    }

    @Test
    void aReceiveStatusCountsInItsOwnTypeAndInAnother() {
        Status s = Status.ok(1, 7, 24, 8);
        assertEquals(3, s.count());
        assertEquals(6, s.count(Datatype.INT));
        assertEquals(24, s.count(Datatype.BYTE));
        assertEquals(2, Datatype.DOUBLE.count(16));
        assertEquals(Ferry.UNDEFINED, Datatype.DOUBLE.count(12));
        assertEquals(3, Datatype.contiguous(3, Datatype.INT).count(36)); // 12-byte elements
    }
}
