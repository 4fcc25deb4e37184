package dev.ferry.core.agent;

/**
 * What one agent says to another as a link opens; the one place that names the fields. All
 * little-endian. After it the link carries records exactly as the rings hold them
 * ({@link ChannelLayout}: the 24-byte header, {@code peer} the rank the packet goes to,
 * {@code origin} the rank it came from, then the payload), with no padding.
 * <pre>
 *   dialing agent to listening agent
 *     +0   u32  magic 'FLNK'
 *     +4   u32  flags: {@link #CALL_ME} (the dialing agent wants a link and the other one dials it),
 *                 {@link #PROBE} (it only looks whether this agent still listens: no link, no answer)
 *     +8   32 bytes: SHA-256 of the job key
 *     +40  u32  address length, then the dialing agent's own address ("host:port", UTF-8)
 *   listening agent to dialing agent (not to a CALL_ME, which gets no answer)
 *     +0   i32  0, or {@link #WRONG_JOB}
 * </pre>
 * Exactly one link joins two agents: the agent whose address sorts first dials; the other,
 * needing the link first, asks it to ({@link #CALL_ME}) and waits for its call, not for an
 * answer: two agents each waiting in its loop for the other's answer would never give theirs.
 */
public final class AgentLinkHello {
    public static final int MAGIC = 0x4b4e4c46; // "FLNK"
    public static final int CALL_ME = 1, PROBE = 2;
    public static final int MAGIC_AT = 0, FLAGS = 4, KEY_HASH = 8, ADDRESS_LENGTH = 40, ADDRESS = 44;
    public static final int KEY_HASH_BYTES = 32, MAX_ADDRESS = 256;
    public static final int OK = 0, WRONG_JOB = -2;

    private AgentLinkHello() {
    }
}
