package dev.ferry.driver.ucx;

import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverException;
import dev.ferry.spi.Hints;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UcxDriverTest {
    @Test
    void libucpLoadsAndItsVersionSuitsJucx() {
        assertNull(UcxLibrary.problem(), "UCX must be usable on this machine (CI installs libucx0)");
        String v = UcxLibrary.version();
        assertNotNull(v);
        assertTrue(v.matches("1\\.(1[2-9]|[2-9]\\d)\\.\\d+"), v);
        assertTrue(new UcxDriver().description().contains("UCX " + v));
    }

    /** Without an RDMA device and without a transport asked for, ucx stands aside, saying why. */
    @Test
    void withoutRdmaItIsUnavailableUnlessTransportsAreAskedFor() {
        assertNull(System.getenv("UCX_TLS"), "this test expects UCX_TLS unset");
        try (DriverContext ctx = new UcxDriver().newContext(Hints.single())) {
            if (TransportProfile.rdmaDevicePresent()) {
                assertNotNull(ctx.properties(), "with an RDMA device ucx is available by default");
            } else {
                DriverException e = assertThrows(DriverException.class, ctx::properties);
                assertTrue(e.getMessage().contains("no RDMA"), e.getMessage());
            }
        }
        System.setProperty(UcxSettings.TLS.propertyName(), "tcp");
        try (DriverContext ctx = new UcxDriver().newContext(Hints.single())) {
            assertEquals(dev.ferry.spi.Transport.REMOTE, ctx.properties().capabilities().transport());
        } finally {
            System.clearProperty(UcxSettings.TLS.propertyName());
        }
    }

    @Test
    void anUnknownTransportIsAClearError() {
        System.setProperty(UcxSettings.TLS.propertyName(), "nosuchtransport");
        try (DriverContext ctx = new UcxDriver().newContext(Hints.single())) {
            DriverException e = assertThrows(DriverException.class, ctx::properties);
            assertTrue(e.getMessage().contains("nosuchtransport"), e.getMessage());
        } finally {
            System.clearProperty(UcxSettings.TLS.propertyName());
        }
    }

    @Test
    void badSettingsAreNamed() {
        System.setProperty(UcxSettings.BUFFER.propertyName(), "12");
        try {
            DriverException e = assertThrows(DriverException.class, () -> new UcxDriver().newContext(Hints.single()));
            assertTrue(e.getMessage().contains("FERRY_UCX_BUFFER"), e.getMessage());
        } finally {
            System.clearProperty(UcxSettings.BUFFER.propertyName());
        }
    }
}
