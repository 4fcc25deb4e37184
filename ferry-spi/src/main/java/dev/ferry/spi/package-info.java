/**
 * The Ferry driver SPI: a Java rendering of NewMadeleine's minidriver interface (seed 000).
 *
 * <p>A {@link dev.ferry.spi.Driver} is found with {@link java.util.ServiceLoader}; it opens
 * {@link dev.ferry.spi.DriverContext}s (one per NIC or rail), which report their
 * {@link dev.ferry.spi.DriverProperties} once, initialise to a {@link dev.ferry.spi.DriverUrl}, and
 * create one {@link dev.ferry.spi.DriverInstance} per peer. Transfers use reusable
 * {@link dev.ferry.spi.Packet}s in buffer, iovec ({@link dev.ferry.spi.IoVec}) or data-layout
 * ({@link dev.ferry.spi.DataLayout}) form, and report a {@link dev.ferry.spi.Status}.
 *
 * <p>This module depends on nothing; drivers depend on it alone.
 */
package dev.ferry.spi;
