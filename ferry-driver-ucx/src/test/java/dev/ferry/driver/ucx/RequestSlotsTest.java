package dev.ferry.driver.ucx;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The slots' bookkeeping for calls that return no request (live requests: UcpTest and the kit). */
class RequestSlotsTest {
    @Test
    void doneAtOnceIsCompletedWithOk() {
        RequestSlots s = new RequestSlots(2);
        s.started(1, 0);
        assertTrue(s.completed(1));
        assertEquals(Ucp.OK, s.status(1));
        assertFalse(s.busy(2));
    }

    @Test
    void anErrorPointerIsCompletedWithItsStatus() {
        RequestSlots s = new RequestSlots(1);
        s.started(0, Ucp.ERR_CANCELED);
        assertTrue(s.completed(0));
        assertEquals(Ucp.ERR_CANCELED, s.status(0));
        s.ended(0, Ucp.OK);
        assertEquals(Ucp.OK, s.status(0));
    }

    @Test
    void anEndedRequestIsNotHandedOver() {
        RequestSlots s = new RequestSlots(1);
        s.started(0, 0);
        assertEquals(0, s.take(0), "nothing left for UCX to end");
        assertEquals(Ucp.OK, s.status(0), "the status stays");
    }
}
