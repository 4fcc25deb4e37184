package dev.ferry.driver.shm;

import dev.ferry.conformance.DriverConformanceTest;
import dev.ferry.spi.Driver;
import dev.ferry.spi.Settings;

/**
 * The kit again with single copy off on both ends: every large packet goes through the pipelined
 * bounce area, the path taken where the kernel refuses process_vm_readv.
 */
class ShmBounceConformanceTest extends DriverConformanceTest {
    @Override
    protected Driver driver() {
        return new ShmDriver();
    }

    @Override
    protected Settings settings() {
        return Settings.fromEnvironment().with("FERRY_SHM_SINGLE_COPY", "off");
    }

    @Override
    protected PeerMode peerMode() {
        return PeerMode.PROCESS;
    }
}
