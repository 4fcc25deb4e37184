package dev.ferry.portals;

/**
 * ptl_ack_req_t: the acknowledgment a put or atomic asks for: a full ack event
 * ({@link #ACK_REQ}), none, a counting-event-only ack ({@link #CT_ACK_REQ}), or an ack that only
 * says the operation completed at the target ({@link #OC_ACK_REQ}).
 *
 * <pre>{@code
 * put(md, 0, 8, AckReq.CT_ACK_REQ, target, pt, bits, 0, null, 0);
 * }</pre>
 */
public enum AckReq {
    ACK_REQ,
    NO_ACK_REQ,
    CT_ACK_REQ,
    OC_ACK_REQ
}
