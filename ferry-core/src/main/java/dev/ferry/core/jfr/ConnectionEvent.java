package dev.ferry.core.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JDK Flight Recorder events of the engine's connections: one when a connection to a peer opens
 * (first contact, or again after an idle close), one when it closes while the job runs (idle,
 * or evicted by the cap). Few (one per connection at most a few times a second), so they are
 * enabled whenever a recording runs; with none, an event costs the check that no recorder was
 * started (from the command line, or later by {@code jcmd}).
 *
 * <pre>{@code
 * jcmd <pid> JFR.start name=ferry filename=rank0.jfr
 * jfr print --events dev.ferry.ConnectionOpened rank0.jfr
 * }</pre>
 */
public final class ConnectionEvent {
    private ConnectionEvent() {
    }

    @Name("dev.ferry.ConnectionOpened")
    @Label("Connection Opened")
    @Category({"Ferry", "Connections"})
    @Description("A connection to a peer opened: on first contact, or again after it was closed idle")
    @StackTrace(false)
    public static final class Opened extends jdk.jfr.Event {
        @Label("Rank")
        @Description("This rank in the job")
        public int rank;
        @Label("Peer")
        @Description("The peer's rank in the job")
        public int peer;
        @Label("Rail")
        @Description("The context (driver) of the connection's first rail")
        public String rail;
        @Label("Open Connections")
        public long open;
    }

    @Name("dev.ferry.ConnectionClosed")
    @Label("Connection Closed")
    @Category({"Ferry", "Connections"})
    @Description("A connection to a peer closed while the job runs: idle (FERRY_IDLE_CLOSE) or evicted by the cap (FERRY_MAX_CONNECTIONS)")
    @StackTrace(false)
    public static final class Closed extends jdk.jfr.Event {
        @Label("Rank")
        public int rank;
        @Label("Peer")
        public int peer;
        @Label("Reason")
        public String reason;
        @Label("Messages Sent")
        public long messagesSent;
        @Label("Bytes Sent")
        @DataAmount
        public long bytesSent;
    }

    /**
     * Made once a recorder runs: asking one whether its kind is recorded costs a field read, but
     * the first event object a JVM makes starts JFR's machinery (a fifth of a second of CPU), which
     * a rank with no recording must not pay.
     */
    private static final class Probes {
        static final Opened OPENED = new Opened();
        static final Closed CLOSED = new Closed();
    }

    public static void opened(int rank, int peer, String rail, long open) {
        if (jdk.jfr.FlightRecorder.isInitialized() && Probes.OPENED.isEnabled()) {
            Opened e = new Opened();
            e.rank = rank;
            e.peer = peer;
            e.rail = rail;
            e.open = open;
            e.commit();
        }
    }

    public static void closed(int rank, int peer, String reason, long messagesSent, long bytesSent) {
        if (jdk.jfr.FlightRecorder.isInitialized() && Probes.CLOSED.isEnabled()) {
            Closed e = new Closed();
            e.rank = rank;
            e.peer = peer;
            e.reason = reason;
            e.messagesSent = messagesSent;
            e.bytesSent = bytesSent;
            e.commit();
        }
    }
}
