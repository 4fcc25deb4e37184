package dev.ferry.core.agent;

/**
 * Why the agent refused or failed a command: the negative status a slot carries back, named
 * ({@link #ABSENT} is a rank's finding that no agent listens).
 */
public enum AgentError {
    /** No such call index. */
    NO_CALL(-1, "the agent has no call of that index"),
    /** The arguments are malformed (too short, a length out of range). */
    BAD_ARGUMENTS(-2, "the arguments do not make a valid call"),
    /** A handle the caller never registered (or another rank's). */
    NOT_REGISTERED(-3, "the memory named was not registered by this rank"),
    /** An offset and length outside the memory registered. */
    OUT_OF_BOUNDS(-4, "the bytes named lie outside the memory registered"),
    /** The process whose memory it is cannot be reached (gone, or its memory unmapped). */
    UNREACHABLE(-5, "the process's memory could not be reached"),
    /** The agent is closing and takes no more commands. */
    CLOSING(-6, "the agent is closing"),
    /** Nobody listens at the agent's socket (a rank's own finding, never an agent's answer). */
    ABSENT(-7, "no agent answers there");

    private final int code;
    private final String meaning;

    AgentError(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    public int code() {
        return code;
    }

    public String meaning() {
        return meaning;
    }

    /** The error of {@code code}, or null for 0 and codes nobody gave out. */
    public static AgentError of(int code) {
        for (AgentError e : values()) {
            if (e.code == code) {
                return e;
            }
        }
        return null;
    }
}
