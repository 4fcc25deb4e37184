package dev.ferry;

import dev.ferry.launch.run.CapturedJob;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.*;

/** The tools interface: Flight Recorder events read back from recordings, and each rank's MBean. */
class ToolsTest {
    static final Duration BOUND = Duration.ofSeconds(60);
    private static final List<String> EVENTS = List.of("dev.ferry.Send", "dev.ferry.Receive", "dev.ferry.Collective", "dev.ferry.WindowSync",
            "dev.ferry.ConnectionOpened", "dev.ferry.PeerFailure");

    /** A recording of an in-process job holds its sends, receives, collectives and window epochs, with sizes, peers and durations. */
    @Test
    void aRecordingHoldsTheJobsEventsWithTheirFields(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("job.jfr");
        try (Recording r = new Recording()) {
            for (String e : EVENTS) {
                r.enable(e).withoutThreshold();
            }
            r.start();
            Ferry.runInProcess(2, BOUND, f -> {
                Comm w = f.world();
                int peer = 1 - w.rank();
                long[] data = new long[512];
                if (w.rank() == 0) {
                    w.send(data, 0, 512, Datatype.LONG, 1, 7);
                    w.isend(data, 0, 16, Datatype.LONG, 1, 8).await();
                } else {
                    w.recv(data, 0, 512, Datatype.LONG, 0, 7);
                    w.irecv(data, 0, 16, Datatype.LONG, 0, 8).await();
                }
                w.allreduce(Ferry.IN_PLACE, 0, data, 0, 1, Datatype.LONG, Op.SUM);
                w.allreduce(Ferry.IN_PLACE, 0, data, 0, 512, Datatype.LONG, Op.SUM);
                PersistentRequest b = w.barrierInit();
                b.start();
                b.await();
                try (Window win = Window.allocate(w, 64, 1)) {
                    win.fence();
                    win.put(new byte[8], 0, 8, Datatype.BYTE, peer, 0);
                    win.fence();
                    win.lock(Window.LockType.SHARED, peer);
                    win.unlock(peer);
                }
            });
            r.stop();
            r.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        Map<String, List<RecordedEvent>> byName = events.stream().filter(e -> e.getEventType().getName().startsWith("dev.ferry."))
                .collect(Collectors.groupingBy(e -> e.getEventType().getName()));
        List<RecordedEvent> sends = byName.getOrDefault("dev.ferry.Send", List.of());
        assertTrue(sends.stream().anyMatch(e -> e.getInt("rank") == 0 && e.getInt("dest") == 1 && e.getInt("tag") == 7
                && e.getLong("bytes") == 4096 && e.getBoolean("blocking") && !e.getDuration().isNegative()), sends.toString());
        assertTrue(sends.stream().anyMatch(e -> e.getInt("tag") == 8 && e.getLong("bytes") == 128 && !e.getBoolean("blocking")), sends.toString());
        List<RecordedEvent> recvs = byName.getOrDefault("dev.ferry.Receive", List.of());
        assertTrue(recvs.stream().anyMatch(e -> e.getInt("rank") == 1 && e.getInt("source") == 0 && e.getLong("bytes") == 4096
                && e.getString("comm").contains("world")), recvs.toString());
        List<RecordedEvent> colls = byName.getOrDefault("dev.ferry.Collective", List.of());
        for (int rank = 0; rank < 2; rank++) {
            int k = rank;
            assertTrue(colls.stream().anyMatch(e -> e.getInt("rank") == k && e.getString("operation").startsWith("allreduce")
                    && e.getLong("bytesSent") >= 4096 && e.getInt("members") == 2), colls.toString());
            assertTrue(colls.stream().anyMatch(e -> e.getInt("rank") == k && e.getString("operation").startsWith("barrier") && e.getBoolean("persistent")),
                    colls.toString());
        }
        Set<String> calls = byName.getOrDefault("dev.ferry.WindowSync", List.of()).stream().map(e -> e.getString("call")).collect(Collectors.toSet());
        assertTrue(calls.containsAll(Set.of("fence", "lock", "unlock")), calls.toString());
        assertFalse(byName.getOrDefault("dev.ferry.ConnectionOpened", List.of()).isEmpty(), byName.keySet().toString());
    }

    /**
     * Three JVMs record from the command line (JAVA_TOOL_OPTIONS with docs/ferry.jfc, as a user
     * would); rank 2 dies, and the survivors' recordings hold its failure beside their own traffic:
     * rank 2 on a node of its own, reached over tcp or through the node agents.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "FERRY_AGENT={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"off", "on"})
    void ranksOfARealJobRecordTheirTrafficAndAPeersFailure(String agent, @TempDir Path dir) throws Exception {
        Path jfc = Path.of(System.getProperty("user.dir")).getParent().resolve("docs/ferry.jfc"); // as the docs say to
        String opts = "-XX:StartFlightRecording:settings=default,settings=" + jfc + ",filename=" + dir + "/rank-%p.jfr,dumponexit=true";
        CapturedJob.Result r = CapturedJob.run(3, Map.of("FERRY_RANKS_PER_NODE", "2", "FERRY_AGENT", agent, "JAVA_TOOL_OPTIONS", opts), Duration.ofSeconds(120),
                ApiRanks.class, "dead");
        assertEquals(3, r.exit(), "rank 2's own status: " + r);
        List<RecordedEvent> all = new java.util.ArrayList<>();
        int recordings = 0;
        try (var files = Files.list(dir)) {
            for (Path p : files.filter(p -> p.toString().endsWith(".jfr")).toList()) {
                if (Files.size(p) > 0) { // the dying rank halts: its recording is never written
                    all.addAll(RecordingFile.readAllEvents(p));
                    recordings++;
                }
            }
        }
        assertEquals(2, recordings, "the survivors' recordings; " + r);
        List<RecordedEvent> failures = all.stream().filter(e -> e.getEventType().getName().equals("dev.ferry.PeerFailure")).toList();
        for (int rank = 0; rank < 2; rank++) {
            int k = rank;
            assertTrue(failures.stream().anyMatch(e -> e.getInt("rank") == k && e.getInt("peer") == 2), failures + " of " + all.size() + " events; " + r);
        }
        assertTrue(all.stream().anyMatch(e -> e.getEventType().getName().equals("dev.ferry.ConnectionOpened")), r.toString());
        List<String> railsTo2 = all.stream().filter(e -> e.getEventType().getName().equals("dev.ferry.ConnectionOpened") && e.getInt("peer") == 2)
                .map(e -> e.getString("rail")).toList();
        assertTrue(!railsTo2.isEmpty() && railsTo2.stream().allMatch((agent.equals("on") ? "agent" : "tcp")::equals), "rails to rank 2: " + railsTo2);
        assertTrue(all.stream().anyMatch(e -> e.getEventType().getName().equals("dev.ferry.Send") && e.getInt("dest") == 2), "sends, asked by ferry.jfc");
    }

    /** With FERRY_JMX on each rank shows its settings and counters as an MBean, gone once it closed. */
    @Test
    void eachRankShowsItsSettingsAndCountersOverJmx() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName all = new ObjectName("dev.ferry:type=Rank,*");
        Ferry.runInProcess(2, BOUND, new FerryConfig().set("FERRY_JMX", "on"), f -> {
            Comm w = f.world();
            int[] v = new int[256];
            for (int i = 0; i < 10; i++) {
                if (w.rank() == 0) {
                    w.send(v, 0, 256, 1, i);
                } else {
                    w.recv(v, 0, 256, 0, i);
                }
            }
            w.barrier();
            Set<ObjectName> names = server.queryNames(all, null);
            ObjectName mine = names.stream().filter(n -> n.getKeyProperty("rank").equals(String.valueOf(w.rank()))).findFirst().orElseThrow();
            FerryMXBean me = JMX.newMXBeanProxy(server, mine, FerryMXBean.class);
            assertEquals(w.rank(), me.getRank());
            assertEquals(2, me.getSize());
            assertEquals("in-process", me.getLauncher());
            FerryMXBean.SettingValue jmx = me.getSettings().stream().filter(s -> s.name().equals("FERRY_JMX")).findFirst().orElseThrow();
            assertEquals("on", jmx.value());
            assertEquals("explicit", jmx.source());
            assertTrue(me.getSettings().stream().anyMatch(s -> s.name().equals("FERRY_EAGER_LIMIT") && s.meaning().length() > 10));
            Map<String, Long> c = me.getCounters();
            if (w.rank() == 1) {
                assertTrue(c.get("matched on arrival") + c.get("matched unexpected") >= 10, c.toString());
            }
            FerryMXBean.PeerTraffic toPeer = me.getPeers().stream().filter(p -> p.rank() == 1 - w.rank()).findFirst().orElseThrow();
            if (w.rank() == 0) {
                assertTrue(toPeer.messagesSent() >= 10 && toPeer.bytesSent() >= 10 * 1024, toPeer.toString());
            } else {
                assertTrue(toPeer.messagesReceived() >= 10 && toPeer.bytesReceived() >= 10 * 1024, toPeer.toString());
            }
            assertFalse(me.getBytesHeld().isEmpty());
            w.barrier();
        });
        assertTrue(server.queryNames(all, null).isEmpty(), "closed ranks leave no MBean");
    }

    /**
     * With FERRY_STALL_REPORT a blocking wait that lasts logs, once, what it waits for and the
     * rank's state. Rank 1 sends only once rank 0's report came: the wait is long by construction.
     */
    @Test
    void aWaitThatLastsReportsWhatItWaitsForOnce() throws Exception {
        java.util.List<String> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.CountDownLatch reported = new java.util.concurrent.CountDownLatch(1), tested = new java.util.concurrent.CountDownLatch(1);
        System.Logger logger = new System.Logger() {
            @Override
            public String getName() {
                return "stalls";
            }

            @Override
            public boolean isLoggable(Level level) {
                return true;
            }

            @Override
            public void log(Level level, java.util.ResourceBundle bundle, String msg, Throwable thrown) {
            }

            @Override
            public void log(Level level, java.util.ResourceBundle bundle, String format, Object... params) {
                String m = params == null ? format : java.text.MessageFormat.format(format, params);
                if (level == Level.WARNING && m.contains("has been waited for")) {
                    reports.add(m);
                    (m.contains("tag 6") ? tested : reported).countDown();
                }
            }
        };
        Ferry.runInProcess(2, BOUND, new FerryConfig().set("FERRY_STALL_REPORT", "50ms").logger(logger), f -> {
            Comm w = f.world();
            int[] v = new int[4];
            if (w.rank() == 0) {
                w.recv(v, 0, 4, 1, 5);
                assertEquals(42, v[3]);
                Request r = w.irecv(v, 0, 4, 1, 6); // a loop of tests reports as a blocking wait does
                while (!r.test()) {
                    Thread.onSpinWait();
                }
                assertEquals(43, v[3]);
            } else {
                assertTrue(reported.await(BOUND.toSeconds(), java.util.concurrent.TimeUnit.SECONDS), "no report of the wait");
                v[3] = 42;
                w.send(v, 0, 4, 0, 5);
                assertTrue(tested.await(BOUND.toSeconds(), java.util.concurrent.TimeUnit.SECONDS), "no report of the tests");
                v[3] = 43;
                w.send(v, 0, 4, 0, 6);
            }
        });
        assertEquals(2, reports.size(), reports.toString());
        assertTrue(reports.get(1).startsWith("receive from world rank 1, tag 6 has been waited for "), reports.get(1));
        String r = reports.get(0);
        assertTrue(r.startsWith("receive from world rank 1, tag 5 has been waited for 0 s; posted receives 1,"), r);
        assertTrue(r.contains("rank 0 after ") && r.contains("progress passes"), "the engine's state: " + r);
    }

    /** A stall report's duration is checked as every other: a wrong one names the setting. */
    @Test
    void aBadStallReportDurationNamesTheSetting() {
        Exception e = assertThrows(Exception.class, () -> Ferry.runInProcess(1, BOUND, new FerryConfig().set("FERRY_STALL_REPORT", "soon"), f -> {
        }));
        assertTrue(String.valueOf(e.getMessage()).contains("FERRY_STALL_REPORT must be a duration") 
                || e.getCause() != null && String.valueOf(e.getCause().getMessage()).contains("FERRY_STALL_REPORT must be a duration"), e.toString());
    }
}
