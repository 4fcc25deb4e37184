package dev.ferry.driver.shm;

import dev.ferry.conformance.DriverConformanceTest;
import dev.ferry.spi.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.List;

/**
 * The kit again with single copy off on both ends: every large packet goes through the pipelined
 * bounce area, the path taken where the kernel refuses process_vm_readv.
 */
class ShmBounceConformanceTest extends DriverConformanceTest {
    @BeforeAll
    static void singleCopyOff() {
        System.setProperty("ferry.shm.single.copy", "off");
    }

    @AfterAll
    static void restore() {
        System.clearProperty("ferry.shm.single.copy");
    }

    @Override
    protected Driver driver() {
        return new ShmDriver();
    }

    @Override
    protected PeerMode peerMode() {
        return PeerMode.PROCESS;
    }

    @Override
    protected List<String> peerJvmOptions() {
        return List.of("-Dferry.shm.single.copy=off");
    }
}
