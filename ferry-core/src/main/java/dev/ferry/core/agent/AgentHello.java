package dev.ferry.core.agent;

/**
 * The words a rank and its node's agent say on the agent's socket before the command ring takes
 * over; the one place that names their fields. All little-endian.
 * <pre>
 *   rank to agent (8 + key bytes)
 *     +0  u32  magic 'FHLO'
 *     +4  u32  key length, at most {@link #MAX_KEY}
 *     +8  the job key's bytes (UTF-8)
 *   agent to rank (8 + path bytes)
 *     +0  i32  0, or a refusal: {@link #WRONG_USER}, {@link #WRONG_KEY}, {@link #MALFORMED}
 *     +4  u32  path length
 *     +8  the channel file's path (UTF-8): the rank maps it ({@link ChannelLayout})
 * </pre>
 * After the answer the socket carries nothing more: the agent watches it for the rank's hang-up
 * (a rank that ends or dies), the rank for the agent's.
 */
public final class AgentHello {
    public static final int MAGIC = 0x4f4c4846; // "FHLO"
    public static final int MAX_KEY = 256;
    public static final long HELLO_MAGIC = 0, KEY_LENGTH = 4, KEY = 8;
    public static final long STATUS = 0, PATH_LENGTH = 4, PATH = 8;
    public static final int WRONG_USER = -1, WRONG_KEY = -2, MALFORMED = -3;

    private AgentHello() {
    }

    /** What a refusal says, for the rank's error. */
    public static String refusal(int status) {
        return switch (status) {
            case WRONG_USER -> "the agent serves another user";
            case WRONG_KEY -> "the agent serves another job (the job key differs)";
            case MALFORMED -> "the agent did not understand the greeting";
            default -> "the agent refused (" + status + ")";
        };
    }
}
