package dev.ferry.driver.tcp;

import dev.ferry.conformance.DriverConformanceTest;
import dev.ferry.spi.Driver;
import dev.ferry.spi.Settings;

/**
 * The kit again with {@code FERRY_TCP_SOCKET_CALLS=nio} on both ends: every read and write goes
 * through the channel's own calls, the path taken where direct calls cannot be made.
 */
class TcpNioConformanceTest extends DriverConformanceTest {
    @Override
    protected Driver driver() {
        return new TcpDriver();
    }

    @Override
    protected Settings settings() {
        return Settings.fromEnvironment().with(TcpSettings.SOCKET_CALLS.name(), "nio");
    }

    @Override
    protected PeerMode peerMode() {
        return PeerMode.PROCESS;
    }
}
