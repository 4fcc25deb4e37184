package dev.ferry.driver.ucx;

/** The kit with UCX on tcp only: endpoints with UCX's peer error handling. */
class UcxTcpConformanceTest extends UcxConformanceTest {
    @Override
    String tls() {
        return "tcp";
    }
}
