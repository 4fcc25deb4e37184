package dev.ferry.driver.tcp;

import dev.ferry.conformance.DriverConformanceTest;
import dev.ferry.spi.Driver;

/** The tcp driver against the conformance kit, the far ends in child JVMs, over loopback. */
class TcpConformanceTest extends DriverConformanceTest {
    @Override
    protected Driver driver() {
        return new TcpDriver();
    }

    @Override
    protected PeerMode peerMode() {
        return PeerMode.PROCESS;
    }
}
