package dev.ferry.driver.ucx;

import org.junit.jupiter.api.AfterAll;

import java.util.List;

/**
 * The kit with UCX on shared memory and large packets pulled with UCP gets alone
 * (FERRY_UCX_PULL=get, the path taken by default where an RDMA transport is there); the default
 * run on this machine ({@link UcxSharedMemoryConformanceTest}) takes them by tag.
 */
class UcxSharedMemoryGetConformanceTest extends UcxSharedMemoryConformanceTest {
    @AfterAll
    static void clearPull() {
        System.clearProperty(UcxSettings.PULL.propertyName());
    }

    @Override
    protected dev.ferry.spi.Driver driver() {
        System.setProperty(UcxSettings.PULL.propertyName(), "get");
        return super.driver();
    }

    @Override
    protected List<String> peerJvmOptions() {
        return List.of("-D" + UcxSettings.TLS.propertyName() + "=" + tls(), "-D" + UcxSettings.PULL.propertyName() + "=get");
    }
}
