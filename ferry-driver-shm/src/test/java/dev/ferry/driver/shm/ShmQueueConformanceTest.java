package dev.ferry.driver.shm;

import dev.ferry.conformance.DriverConformanceTest;
import dev.ferry.spi.Driver;
import dev.ferry.spi.Settings;

/**
 * The kit again with no rings ({@code FERRY_SHM_RINGS=0}): every packet of every connection goes
 * through the receiver's shared queue, between two processes.
 */
class ShmQueueConformanceTest extends DriverConformanceTest {
    @Override
    protected Driver driver() {
        return new ShmDriver();
    }

    @Override
    protected Settings settings() {
        return Settings.fromEnvironment().with("FERRY_SHM_RINGS", "0");
    }

    @Override
    protected boolean sharedReceiveQueue() {
        return true;
    }

    @Override
    protected PeerMode peerMode() {
        return PeerMode.PROCESS;
    }
}
