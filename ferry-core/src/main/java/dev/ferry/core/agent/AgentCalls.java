package dev.ferry.core.agent;

/**
 * The calls a rank forwards to its node's agent: each one's index, and its argument and return
 * blocks (all fields little-endian, at the offsets named). The one place that names them.
 * <pre>
 *   PING        args: u64 value                              returns: u64 value, u64 agent's beat
 *   REGISTER    args: u64 address, u64 length                 returns: u64 handle
 *               (seed 003's validate: the agent learns the rank's memory once; the rank's pid
 *                is the one its socket's credentials gave, not one it names)
 *   DEREGISTER  args: u64 handle                              returns: nothing
 *   COPY        args: u64 from handle, u64 from offset,       returns: u64 bytes copied
 *                     u64 to handle, u64 to offset, u64 length
 *               (seed 003's cross-domain write: the agent reads the bytes out of the rank with
 *                process_vm_readv and writes them into it with process_vm_writev)
 *   COPY_ASYNC  args: as COPY, then u32 counter                returns: nothing, at once
 *               (checked, then queued: the agent moves it a stage per pass of its loop while the
 *                rank computes, and adds its length to the counter once done, or sets the
 *                counter's error; the rank polls the counter in the shared memory)
 *   ATTACH      args: u32 rank, u32 rail                      returns: u32 length, the rail's link address
 *               (this channel carries the rank's packets on that rail: FERRY_RAILS=agent:2 gives
 *                a rank two channels, and the agent a listener and a link per other node on each)
 *   ROUTE       args: u32 rank, u32 length, address          returns: nothing
 *               (on the channel's rail, rank is served by the agent at that address)
 *   STATS       args: none                                    returns: u64 links open, u64 closed idle,
 *                                                                      u64 evicted (all rails), u64 rails,
 *                                                                      u64 pulled bytes that moved between a
 *                                                                      link and mapped memory (this rank's),
 *                                                                      u64 messages offloads served for it
 *   MAP         args: u64 address, u64 length                 returns: u64 1 when the agent mapped them
 *               (memory the rank keeps until it leaves, in a shared mapping of a file: the agent maps the
 *                file too, and pulls then move between the link and that memory with no copy between;
 *                0 for memory that is no such mapping, reached by process_vm_readv/writev as ever)
 *   TABLE       args: u32 kind, u32 zero, u64 address,        returns: u64 1 when an offload of the agent reads it
 *                     u64 length
 *               (a table of the layer above in memory the agent mapped, for the offload of that kind,
 *                {@link AgentOffload}: the agent then serves some of the rank's arriving messages itself)
 * </pre>
 * Handles name memory that the calling rank registered, and nothing else: another rank's handle,
 * or bytes past a registration, get {@link AgentError#NOT_REGISTERED} or
 * {@link AgentError#OUT_OF_BOUNDS}, and nothing is touched.
 */
public final class AgentCalls {
    public static final int PING = 1, REGISTER = 2, DEREGISTER = 3, COPY = 4, COPY_ASYNC = 5, ATTACH = 6, ROUTE = 7, STATS = 8, MAP = 9, TABLE = 10;

    /** Argument fields. */
    public static final long VALUE = 0, ADDRESS = 0, LENGTH = 8, HANDLE = 0, FROM = 0, FROM_OFFSET = 8, TO = 16, TO_OFFSET = 24,
            COPY_LENGTH = 32, COUNTER = 40, KIND = 0, TABLE_ADDRESS = 8, TABLE_LENGTH = 16, RANK = 0, RAIL = 4, ADDRESS_LENGTH = 4, ROUTE_ADDRESS = 8;
    /** Return fields. */
    public static final long RET_VALUE = 0, RET_BEAT = 8, RET_HANDLE = 0, RET_COPIED = 0, RET_ADDRESS_LENGTH = 0, RET_ADDRESS = 4, RET_LINKS = 0, RET_CLOSED_IDLE = 8, RET_EVICTED = 16, RET_RAILS = 24, RET_MAPPED_BYTES = 32, RET_OFFLOADED = 40, RET_MAPPED = 0, RET_TABLE = 0;

    private AgentCalls() {
    }
}
