package dev.ferry.driver.ucx;

/** The kit with UCX on shared memory only (posix, sysv, cma): no peer failure handler, peers watched by pid. */
class UcxSharedMemoryConformanceTest extends UcxConformanceTest {
    @Override
    String tls() {
        return "sm";
    }
}
