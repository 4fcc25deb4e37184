/** The ucx driver: UCX (RDMA, or shared memory and tcp through UCX) through its Java bindings and FFM. */
module dev.ferry.driver.ucx {
    requires dev.ferry.spi;
    requires jucx;
    provides dev.ferry.spi.Driver with dev.ferry.driver.ucx.UcxDriver;
}
