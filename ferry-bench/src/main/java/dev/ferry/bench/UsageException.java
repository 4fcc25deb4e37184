package dev.ferry.bench;

/** Bad command-line input: the message is the one-line error to print; the exit code is 2. */
public final class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message);
    }
}
