package dev.ferry;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The application API's JDK Flight Recorder events: what JDK Mission Control and {@code jfr print}
 * show of a rank. Sends, receives, collectives and window synchronisation come one per call, so
 * they are off unless a recording asks for them, with the settings file {@code docs/ferry.jfc}
 * (an option {@code dev.ferry.Send#enabled=true} is checked against the events JFR knows at its
 * start, before these are loaded, and dropped); a peer's failure is on whenever a recording runs.
 * With no recording asking, an event costs the read of whether a recorder runs and, once one
 * does, of whether its kind is recorded: the probes below, made once.
 *
 * <pre>{@code
 * JAVA_TOOL_OPTIONS="-XX:StartFlightRecording:settings=default,settings=docs/ferry.jfc,filename=rank-%p.jfr" bin/ferry run -n 4 ...
 * jfr print --events dev.ferry.Collective rank-1234.jfr
 * }</pre>
 *
 * A blocking call's event spans the call; a nonblocking one's spans starting it (its request
 * completes later); a collective's spans it from its start to its completion at this rank.
 */
final class FerryEvents {
    private FerryEvents() {
    }

    @Name("dev.ferry.Send")
    @Label("Send")
    @Category({"Ferry", "Point-to-point"})
    @Description("A send: blocking (the whole call) or nonblocking (starting it)")
    @Enabled(false)
    @StackTrace(false)
    public static final class Send extends Event {
        @Label("Rank")
        @Description("This rank in the job")
        public int rank;
        @Label("Destination")
        @Description("The destination's rank in the communicator")
        public int dest;
        @Label("Tag")
        public int tag;
        @Label("Size")
        @DataAmount
        public long bytes;
        @Label("Communicator")
        public String comm;
        @Label("Blocking")
        public boolean blocking;
        @Label("Synchronous")
        public boolean synchronous;
    }

    @Name("dev.ferry.Receive")
    @Label("Receive")
    @Category({"Ferry", "Point-to-point"})
    @Description("A receive: blocking (the whole call, with what came) or nonblocking (posting it)")
    @Enabled(false)
    @StackTrace(false)
    public static final class Receive extends Event {
        @Label("Rank")
        public int rank;
        @Label("Source")
        @Description("The sender's rank in the communicator (for a nonblocking receive: as asked, -1 for any)")
        public int source;
        @Label("Tag")
        public int tag;
        @Label("Size")
        @Description("The message's length (for a nonblocking receive: the buffer's)")
        @DataAmount
        public long bytes;
        @Label("Communicator")
        public String comm;
        @Label("Blocking")
        public boolean blocking;
    }

    @Name("dev.ferry.Collective")
    @Label("Collective")
    @Category({"Ferry", "Collectives"})
    @Description("A collective at this rank, from its start to its completion here")
    @Enabled(false)
    @StackTrace(false)
    public static final class Collective extends Event {
        @Label("Rank")
        public int rank;
        @Label("Operation")
        @Description("The collective and the algorithm it took")
        public String operation;
        @Label("Communicator")
        public String comm;
        @Label("Members")
        public int members;
        @Label("Bytes Sent")
        @Description("What this rank sent in it")
        @DataAmount
        public long bytesSent;
        @Label("Persistent")
        public boolean persistent;
    }

    @Name("dev.ferry.WindowSync")
    @Label("Window Synchronization")
    @Category({"Ferry", "One-sided"})
    @Description("A window's synchronization call (fence, lock, unlock, flush, post, start, complete, wait): where epochs begin and end")
    @Enabled(false)
    @StackTrace(false)
    public static final class WindowSync extends Event {
        @Label("Rank")
        public int rank;
        @Label("Call")
        public String call;
        @Label("Target")
        @Description("The target's rank in the window's communicator, or -1 for all")
        public int target;
        @Label("Window")
        public String window;
    }

    @Name("dev.ferry.PeerFailure")
    @Label("Peer Failure")
    @Category({"Ferry", "Faults"})
    @Description("A peer failed (died, left, or broke the protocol): requests that involve it fail")
    @StackTrace(false)
    public static final class PeerFailure extends Event {
        @Label("Rank")
        public int rank;
        @Label("Peer")
        @Description("The failed peer's rank in the job")
        public int peer;
        @Label("Reason")
        public String reason;
    }

    /**
     * One event of each kind, made once a recorder runs, to ask whether the kind is recorded (a
     * field read). Not before: the first event object a JVM makes starts JFR's machinery, a fifth
     * of a second of CPU that a rank with no recording must not pay.
     */
    private static final class Probes {
        static final Send SEND = new Send();
        static final Receive RECEIVE = new Receive();
        static final Collective COLLECTIVE = new Collective();
        static final WindowSync WINDOW_SYNC = new WindowSync();
        static final PeerFailure PEER_FAILURE = new PeerFailure();
    }

    /** Whether a recorder was started in this JVM (from the command line, or later by jcmd): a static read once it has. */
    private static boolean recorder() {
        return jdk.jfr.FlightRecorder.isInitialized();
    }

    /** A new event of {@code probe}'s kind, begun, when its kind is recorded; else null (nothing made). */
    private static <E extends Event> E begun(java.util.function.Supplier<E> probe, java.util.function.Supplier<E> make) {
        if (!recorder() || !probe.get().isEnabled()) {
            return null;
        }
        E e = make.get();
        e.begin();
        return e;
    }

    /** A send's event, begun, when sends are recorded; else null. */
    static Send send() {
        return begun(() -> Probes.SEND, Send::new);
    }

    static void commit(Send e, Comm c, int dest, int tag, long bytes, boolean blocking, boolean sync) {
        e.end();
        if (e.shouldCommit()) {
            e.rank = c.ferry().rank();
            e.dest = dest;
            e.tag = tag;
            e.bytes = bytes;
            e.comm = c.toString();
            e.blocking = blocking;
            e.synchronous = sync;
            e.commit();
        }
    }

    static Receive receive() {
        return begun(() -> Probes.RECEIVE, Receive::new);
    }

    static void commit(Receive e, Comm c, int source, int tag, long bytes, boolean blocking) {
        e.end();
        if (e.shouldCommit()) {
            e.rank = c.ferry().rank();
            e.source = source;
            e.tag = tag;
            e.bytes = bytes;
            e.comm = c.toString();
            e.blocking = blocking;
            e.commit();
        }
    }

    static Collective collective() {
        return begun(() -> Probes.COLLECTIVE, Collective::new);
    }

    static void commit(Collective e, Comm c, String operation, long bytesSent, boolean persistent) {
        e.end();
        if (e.shouldCommit()) {
            e.rank = c.ferry().rank();
            e.operation = operation;
            e.comm = c.toString();
            e.members = c.size();
            e.bytesSent = bytesSent;
            e.persistent = persistent;
            e.commit();
        }
    }

    static WindowSync windowSync() {
        return begun(() -> Probes.WINDOW_SYNC, WindowSync::new);
    }

    static void commit(WindowSync e, WindowAccess w, String call, int target) {
        e.end();
        if (e.shouldCommit()) {
            e.rank = w.comm.ferry().rank();
            e.call = call;
            e.target = target;
            e.window = w.toString();
            e.commit();
        }
    }

    static void peerFailure(int rank, int peer, String reason) {
        if (recorder() && Probes.PEER_FAILURE.isEnabled()) {
            PeerFailure e = new PeerFailure();
            e.rank = rank;
            e.peer = peer;
            e.reason = reason;
            e.commit();
        }
    }
}
