package dev.ferry.core.agent;

/**
 * A command the node agent refused or could not run ({@link #error()} says which), or an agent
 * that is gone or never answered ({@link #error()} null).
 */
public final class AgentException extends RuntimeException {
    private final AgentError error;

    public AgentException(String message) {
        super(message);
        this.error = null;
    }

    public AgentException(AgentError error, String what) {
        super(what + ": " + error.meaning());
        this.error = error;
    }

    /** Why the agent refused, or null when it is not there to answer. */
    public AgentError error() {
        return error;
    }
}
