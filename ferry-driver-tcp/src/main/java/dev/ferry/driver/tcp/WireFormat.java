package dev.ferry.driver.tcp;

/**
 * Every byte layout the tcp driver puts on the wire, in one place. All integers big-endian.
 *
 * <p><b>Handshake</b>, sent by the connecting side first, {@link #HS_FIXED} bytes then two
 * variable parts:
 * <pre>
 *   offset size
 *   0      4    magic  'FRYH' ({@link #HS_MAGIC}), or 'FRYQ' ({@link #HS_REQUEST_MAGIC}) for a connection
 *               request: "connect to me", from the side that waits (its URL sorts higher); closed after the reply
 *   4      2    version ({@link #VERSION})
 *   6      2    job key length, 0..{@link #MAX_KEY}
 *   8      4    sender rank
 *   12     4    receiver rank (the rank the sender expects to reach)
 *   16     4    sender URL length, 1..{@link #MAX_URL}
 *   20     ..   job key bytes, then the sender context's encoded URL
 * </pre>
 * <b>Reply</b>, from the accepting side, {@link #REPLY_BYTES} bytes: magic 'FRYA' at 0, status at 4
 * ({@link #ACCEPTED}). A rejected connection gets no reply: it is closed.
 *
 * <p><b>Frame header</b>, before every packet, {@link #FRAME_HEADER} bytes:
 * <pre>
 *   0      4    magic  'FRYF' ({@link #FRAME_MAGIC})
 *   4      4    kind: {@link #KIND_DATA} or {@link #KIND_BYE}
 *   8      8    payload length: 0..max packet size for DATA, 0 for BYE
 * </pre>
 */
final class WireFormat {
    static final int HS_MAGIC = 0x46525948;
    static final int HS_REQUEST_MAGIC = 0x46525951;
    static final short VERSION = 1;
    static final int HS_MAGIC_OFFSET = 0;
    static final int HS_VERSION_OFFSET = 4;
    static final int HS_KEY_LENGTH_OFFSET = 6;
    static final int HS_SENDER_RANK_OFFSET = 8;
    static final int HS_RECEIVER_RANK_OFFSET = 12;
    static final int HS_URL_LENGTH_OFFSET = 16;
    static final int HS_FIXED = 20;
    static final int MAX_KEY = 256;
    static final int MAX_URL = 16384;

    static final int REPLY_MAGIC = 0x46525941;
    static final int REPLY_MAGIC_OFFSET = 0;
    static final int REPLY_STATUS_OFFSET = 4;
    static final int REPLY_BYTES = 8;
    static final int ACCEPTED = 0;

    static final int FRAME_MAGIC = 0x46525946;
    static final int FRAME_MAGIC_OFFSET = 0;
    static final int FRAME_KIND_OFFSET = 4;
    static final int FRAME_LENGTH_OFFSET = 8;
    static final int FRAME_HEADER = 16;
    static final int KIND_DATA = 1;
    static final int KIND_BYE = 2;

    private WireFormat() {
    }
}
