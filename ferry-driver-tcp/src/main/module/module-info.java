/** The tcp driver: ranks on different nodes talk over TCP sockets (optionally TLS). */
module dev.ferry.driver.tcp {
    requires dev.ferry.spi;
    requires jdk.net;
    provides dev.ferry.spi.Driver with dev.ferry.driver.tcp.TcpDriver;
}
