/**
 * The driver SPI: what a network driver implements ({@link dev.ferry.spi.Driver}) and the engine
 * calls. A driver depends on this module alone.
 */
module dev.ferry.spi {
    exports dev.ferry.spi;
}
