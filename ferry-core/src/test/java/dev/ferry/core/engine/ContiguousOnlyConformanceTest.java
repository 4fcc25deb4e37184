package dev.ferry.core.engine;

import dev.ferry.conformance.DriverConformanceTest;
import dev.ferry.spi.Driver;

/** The contiguous-only test driver passes the conformance kit: it is a driver the SPI allows. */
class ContiguousOnlyConformanceTest extends DriverConformanceTest {
    @Override
    protected Driver driver() {
        return new RestrictedDriver(RestrictedDriver.Mode.CONTIGUOUS);
    }

    @Override
    protected PeerMode peerMode() {
        return PeerMode.THREAD;
    }
}
