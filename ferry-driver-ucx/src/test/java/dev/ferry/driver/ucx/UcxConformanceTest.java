package dev.ferry.driver.ucx;

import dev.ferry.conformance.DriverConformanceTest;
import dev.ferry.spi.Driver;
import dev.ferry.spi.Settings;

/**
 * The ucx driver against the conformance kit with UCX restricted to some transports
 * (FERRY_UCX_TLS, at both ends), the far ends in child JVMs.
 */
abstract class UcxConformanceTest extends DriverConformanceTest {
    /** The transports, in UCX_TLS syntax. */
    abstract String tls();

    @Override
    protected Driver driver() {
        return new UcxDriver();
    }

    @Override
    protected Settings settings() {
        return Settings.fromEnvironment().with(UcxSettings.TLS.name(), tls());
    }

    @Override
    protected PeerMode peerMode() {
        return PeerMode.PROCESS;
    }
}
