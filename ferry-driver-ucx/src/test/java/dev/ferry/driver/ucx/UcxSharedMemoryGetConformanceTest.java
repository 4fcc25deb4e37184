package dev.ferry.driver.ucx;

import dev.ferry.spi.Settings;

/**
 * The kit with UCX on shared memory and large packets pulled with UCP gets alone
 * (FERRY_UCX_PULL=get, the path taken by default where an RDMA transport is there); the default
 * run on this machine ({@link UcxSharedMemoryConformanceTest}) takes them by tag.
 */
class UcxSharedMemoryGetConformanceTest extends UcxSharedMemoryConformanceTest {
    @Override
    protected Settings settings() {
        return super.settings().with(UcxSettings.PULL.name(), "get");
    }
}
