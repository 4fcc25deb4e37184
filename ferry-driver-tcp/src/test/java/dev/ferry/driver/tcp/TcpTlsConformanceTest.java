package dev.ferry.driver.tcp;

import dev.ferry.conformance.DriverConformanceTest;
import dev.ferry.spi.Driver;
import dev.ferry.spi.Settings;

/**
 * The kit again with {@code FERRY_TCP_TLS=on} on both ends (peers in their own processes): every
 * byte after the handshake goes through TLS 1.3, with whole records and partial ones, large
 * gathering writes and reads straight into posted memory.
 */
class TcpTlsConformanceTest extends DriverConformanceTest {
    @Override
    protected Driver driver() {
        return new TcpDriver();
    }

    @Override
    protected Settings settings() {
        return Settings.fromEnvironment().with(TcpSettings.TLS.name(), "on");
    }

    @Override
    protected PeerMode peerMode() {
        return PeerMode.PROCESS;
    }
}
