/** The self driver: contexts of one process reach each other through in-memory rings. */
module dev.ferry.driver.self {
    requires dev.ferry.spi;
    provides dev.ferry.spi.Driver with dev.ferry.driver.self.SelfDriver;
}
