package dev.ferry.driver.shm;

import dev.ferry.conformance.DriverConformanceTest;
import dev.ferry.spi.Driver;

/** The shm driver against the conformance kit, the far ends in child JVMs. */
class ShmConformanceTest extends DriverConformanceTest {
    @Override
    protected Driver driver() {
        return new ShmDriver();
    }

    @Override
    protected PeerMode peerMode() {
        return PeerMode.PROCESS;
    }
}
