package dev.ferry.driver.self;

import dev.ferry.conformance.DriverConformanceTest;
import dev.ferry.spi.Driver;

/** The self driver against the conformance kit, both ends in this JVM. */
class SelfConformanceTest extends DriverConformanceTest {
    @Override
    protected Driver driver() {
        return new SelfDriver();
    }

    @Override
    protected PeerMode peerMode() {
        return PeerMode.THREAD;
    }
}
