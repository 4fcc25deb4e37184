/** The shm driver: ranks of one node talk through shared-memory rings and single-copy pulls. */
module dev.ferry.driver.shm {
    requires dev.ferry.spi;
    provides dev.ferry.spi.Driver with dev.ferry.driver.shm.ShmDriver;
}
