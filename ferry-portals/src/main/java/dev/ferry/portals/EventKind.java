package dev.ferry.portals;

/**
 * ptl_event_kind_t: what an event reports. Target side: the operations that arrived (the
 * {@code _OVERFLOW} kinds when an entry appended to the priority list matched a message that had
 * landed in the overflow list), link, unlink, free, search and flow control. Initiator side:
 * send, ack and reply.
 *
 * <pre>{@code
 * Event e = eqWait(eq);
 * if (e.type == EventKind.EVENT_PUT) { ... }
 * }</pre>
 */
public enum EventKind {
    EVENT_GET,
    EVENT_GET_OVERFLOW,
    EVENT_PUT,
    EVENT_PUT_OVERFLOW,
    EVENT_ATOMIC,
    EVENT_ATOMIC_OVERFLOW,
    EVENT_FETCH_ATOMIC,
    EVENT_FETCH_ATOMIC_OVERFLOW,
    EVENT_REPLY,
    EVENT_SEND,
    EVENT_ACK,
    EVENT_PT_DISABLED,
    EVENT_LINK,
    EVENT_AUTO_UNLINK,
    EVENT_AUTO_FREE,
    EVENT_SEARCH
}
