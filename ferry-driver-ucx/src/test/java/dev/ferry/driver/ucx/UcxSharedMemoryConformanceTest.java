package dev.ferry.driver.ucx;

import dev.ferry.conformance.DriverConformanceTest;
import dev.ferry.spi.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.List;

/** The ucx driver against the conformance kit with UCX restricted to shared memory (posix, sysv, cma), the far ends in child JVMs. */
class UcxSharedMemoryConformanceTest extends DriverConformanceTest {
    private static final String TLS = "sm";

    @BeforeAll
    static void restrictTransports() {
        System.setProperty(UcxSettings.TLS.propertyName(), TLS);
    }

    @AfterAll
    static void clear() {
        System.clearProperty(UcxSettings.TLS.propertyName());
    }

    @Override
    protected Driver driver() {
        return new UcxDriver();
    }

    @Override
    protected PeerMode peerMode() {
        return PeerMode.PROCESS;
    }

    @Override
    protected List<String> peerJvmOptions() {
        return List.of("-D" + UcxSettings.TLS.propertyName() + "=" + TLS);
    }
}
