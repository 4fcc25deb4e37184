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
        try (DriverContext ctx = new UcxDriver().newContext(with(UcxSettings.TLS.name(), "tcp"))) {
            assertEquals(dev.ferry.spi.Transport.REMOTE, ctx.properties().capabilities().transport());
        }
    }

    @Test
    void anUnknownTransportIsAClearError() {
        try (DriverContext ctx = new UcxDriver().newContext(with(UcxSettings.TLS.name(), "nosuchtransport"))) {
            DriverException e = assertThrows(DriverException.class, ctx::properties);
            assertTrue(e.getMessage().contains("nosuchtransport"), e.getMessage());
        }
    }

    @Test
    void badSettingsAreNamed() {
        DriverException e = assertThrows(DriverException.class, () -> new UcxDriver().newContext(with(UcxSettings.BUFFER.name(), "12")));
        assertTrue(e.getMessage().contains("FERRY_UCX_BUFFER"), e.getMessage());
    }

    /** Hints of a job of one whose settings are the environment's plus {@code name=value}. */
    private static Hints with(String name, String value) {
        return new Hints(1, 0, true, java.util.Map.of(), dev.ferry.spi.Settings.fromEnvironment().with(name, value));
    }
}
