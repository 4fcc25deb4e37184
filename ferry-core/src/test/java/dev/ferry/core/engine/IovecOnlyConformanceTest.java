package dev.ferry.core.engine;

import dev.ferry.conformance.DriverConformanceTest;
import dev.ferry.spi.Driver;

/** The iovec-only test driver passes the conformance kit: it is a driver the SPI allows. */
class IovecOnlyConformanceTest extends DriverConformanceTest {
    @Override
    protected Driver driver() {
        return new RestrictedDriver(RestrictedDriver.Mode.IOVEC);
    }

    @Override
    protected PeerMode peerMode() {
        return PeerMode.THREAD;
    }
}
