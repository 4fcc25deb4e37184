package dev.ferry;

import java.util.Map;

/**
 * What a rank holds of the job now ({@link Ferry#stats()}): its connections to peers (itself
 * aside) open now, and opened, closed while idle and evicted by the cap since it started
 * (FERRY_IDLE_CLOSE, FERRY_MAX_CONNECTIONS), and the bytes Ferry holds, by kind: the gates' packet
 * buffers, the gates made and the peer table, unexpected messages kept, each driver's rings,
 * buffers and shared arena. A snapshot that may be a moment old.
 *
 * <pre>{@code
 * FerryStats s = ferry.stats();
 * System.out.println(s.connectionsOpen() + " connections, " + s.bytesTotal() + " bytes held");
 * s.bytesHeld().forEach((kind, bytes) -> System.out.println("  " + kind + ": " + bytes));
 * }</pre>
 *
 * @param connectionsOpen   connections open now
 * @param connectionsOpened connections opened since the start (reopened ones included)
 * @param closedIdle        connections closed because they were idle (or their peer asked)
 * @param evicted           connections closed because the cap was reached
 * @param bytesHeld         bytes held now by kind, in a stable order
 */
public record FerryStats(long connectionsOpen, long connectionsOpened, long closedIdle, long evicted, Map<String, Long> bytesHeld) {
    public FerryStats {
        bytesHeld = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(bytesHeld));
    }

    /** All the bytes held. */
    public long bytesTotal() {
        return bytesHeld.values().stream().mapToLong(Long::longValue).sum();
    }
}
