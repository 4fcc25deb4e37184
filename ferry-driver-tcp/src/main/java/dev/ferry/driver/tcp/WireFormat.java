package dev.ferry.driver.tcp;

/**
 * Every byte layout the tcp driver puts on the wire, in one place. All integers big-endian.
 *
 * <p><b>Handshake</b>: four messages, after the TLS handshake when TLS is on. Each side proves it
 * knows the job key without sending it: an HMAC ({@link JobSecret}) over the whole hello and the
 * accepting side's fresh nonce, under a different derived key in each direction, so a recorded
 * exchange replayed meets a new nonce and fails, and neither side's tag serves as the other's.
 * <br><b>Hello</b>, from the connecting side, {@link #HS_FIXED} bytes then the sender's URL:
 * <pre>
 *   offset size
 *   0      4    magic  'FRYH' ({@link #HS_MAGIC}), or 'FRYQ' ({@link #HS_REQUEST_MAGIC}) for a connection
 *               request: "connect to me", from the side that waits (its URL sorts higher); closed after the reply
 *   4      2    version ({@link #VERSION})
 *   6      2    reserved, 0
 *   8      4    sender rank
 *   12     4    receiver rank (the rank the sender expects to reach)
 *   16     4    sender URL length, 1..{@link #MAX_URL}
 *   20     16   the sender's nonce
 *   36     ..   the sender context's encoded URL
 * </pre>
 * <b>Challenge</b>, from the accepting side, {@link #CHALLENGE_BYTES} bytes: magic 'FRYC' at 0, its
 * nonce (16 bytes) at 4, at 20 the tag (32 bytes) of the hello and that nonce under the challenge key.
 * <br><b>Proof</b>, from the connecting side, {@link #PROOF_BYTES} bytes: magic 'FRYP' at 0, at 4
 * the tag of the hello and the challenge's nonce under the proof key.
 * <br><b>Reply</b>, from the accepting side, {@link #REPLY_BYTES} bytes: magic 'FRYA' at 0, status at 4
 * ({@link #ACCEPTED}). A connection refused at any step gets nothing more: it is closed.
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
    static final short VERSION = 2;
    static final int HS_MAGIC_OFFSET = 0;
    static final int HS_VERSION_OFFSET = 4;
    static final int HS_RESERVED_OFFSET = 6;
    static final int HS_SENDER_RANK_OFFSET = 8;
    static final int HS_RECEIVER_RANK_OFFSET = 12;
    static final int HS_URL_LENGTH_OFFSET = 16;
    static final int HS_NONCE_OFFSET = 20;
    static final int HS_FIXED = HS_NONCE_OFFSET + JobSecret.NONCE_BYTES;
    static final int MAX_KEY = 256;
    static final int MAX_URL = 16384;

    static final int CHALLENGE_MAGIC = 0x46525943;
    static final int CHALLENGE_NONCE_OFFSET = 4;
    static final int CHALLENGE_MAC_OFFSET = CHALLENGE_NONCE_OFFSET + JobSecret.NONCE_BYTES;
    static final int CHALLENGE_BYTES = CHALLENGE_MAC_OFFSET + JobSecret.MAC_BYTES;

    static final int PROOF_MAGIC = 0x46525950;
    static final int PROOF_MAC_OFFSET = 4;
    static final int PROOF_BYTES = PROOF_MAC_OFFSET + JobSecret.MAC_BYTES;

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
