package dev.ferry.spi;

/**
 * Thrown by the non-hot-path calls of a driver (context creation, properties, init, instance
 * creation) when they fail; hot-path calls return a {@link Status} instead.
 */
public class DriverException extends RuntimeException {
    public DriverException(String message) {
        super(message);
    }

    public DriverException(String message, Throwable cause) {
        super(message, cause);
    }
}
