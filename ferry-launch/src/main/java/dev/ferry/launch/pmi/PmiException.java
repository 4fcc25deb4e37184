package dev.ferry.launch.pmi;

/** A PMI conversation failed: the launcher went away, answered an error, or said something malformed. */
public class PmiException extends RuntimeException {
    public PmiException(String message) {
        super(message);
    }

    public PmiException(String message, Throwable cause) {
        super(message, cause);
    }
}
