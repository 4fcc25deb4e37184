package dev.ferry.driver.ucx;

import dev.ferry.conformance.DriverConformanceTest;
import dev.ferry.spi.Driver;
import org.junit.jupiter.api.AfterAll;

import java.util.List;

/**
 * The ucx driver against the conformance kit with UCX restricted to some transports
 * (FERRY_UCX_TLS, in this JVM and the peers'), the far ends in child JVMs.
 */
abstract class UcxConformanceTest extends DriverConformanceTest {
    /** The transports, in UCX_TLS syntax. */
    abstract String tls();

    @AfterAll
    static void clear() {
        System.clearProperty(UcxSettings.TLS.propertyName());
    }

    @Override
    protected Driver driver() {
        System.setProperty(UcxSettings.TLS.propertyName(), tls()); // read when the context starts
        return new UcxDriver();
    }

    @Override
    protected PeerMode peerMode() {
        return PeerMode.PROCESS;
    }

    @Override
    protected List<String> peerJvmOptions() {
        return List.of("-D" + UcxSettings.TLS.propertyName() + "=" + tls());
    }
}
