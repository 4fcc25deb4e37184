package dev.ferry.spi;

/**
 * A driver was given a setting it does not understand ({@code FERRY_SHM_SINGLE_COPY=xyz}). Unlike
 * other {@link DriverException}s, which say the driver cannot work here (no library, no device)
 * and let the job go on with the other drivers, this one ends the start: a job must not quietly
 * run without a driver because of a typing error.
 *
 * <pre>{@code
 * if (!v.equals("auto") && !v.equals("off")) {
 *     throw new SettingException("FERRY_SHM_SINGLE_COPY must be auto or off, not '" + v + "'");
 * }
 * }</pre>
 */
public class SettingException extends DriverException {
    public SettingException(String message) {
        super(message);
    }

    public SettingException(String message, Throwable cause) {
        super(message, cause);
    }
}
