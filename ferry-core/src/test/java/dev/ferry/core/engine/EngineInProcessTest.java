package dev.ferry.core.engine;

import dev.ferry.core.request.SendRequest;
import dev.ferry.launch.pmi.InProcessJob;
import dev.ferry.spi.Settings;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Engines of an in-process job: ranks as threads of this JVM, over self, shm or tcp. */
class EngineInProcessTest {
    private static final Duration BOUND = Duration.ofSeconds(120);

    /** Every size to every rank, as EngineRanks' multi-process job does, and the rails each rank used. */
    private static Map<Integer, String> sizes(int n, Settings settings) throws Exception {
        Map<Integer, String> lines = new ConcurrentHashMap<>();
        InProcessJob.run(n, BOUND, boot -> lines.put(boot.rank(), EngineRanks.sizes(new EngineConfig().bootstrap(boot).settings(settings))));
        assertEquals(n, lines.size());
        lines.values().forEach(l -> assertTrue(l.startsWith("ok sizes"), l));
        return lines;
    }

    @Test
    void threeRanksOfOneJvmTalkThroughSelf() throws Exception {
        String line = sizes(3, Settings.fromEnvironment()).get(1);
        assertTrue(line.contains("rails 0=self 1=self 2=self;"), line);
    }

    @Test
    void ranksOfOneJvmCanTalkThroughShm() throws Exception {
        String line = sizes(2, Settings.fromEnvironment().with("FERRY_SAME_PROCESS", "node").with("FERRY_DRIVERS", "self,shm")).get(0);
        assertTrue(line.contains("rails 0=self 1=shm;"), line);
    }

    @Test
    void ranksOfOneJvmCanTalkThroughTcp() throws Exception {
        Settings tcp = Settings.fromEnvironment().with("FERRY_SAME_PROCESS", "node").with("FERRY_RANKS_PER_NODE", "1")
                .with("FERRY_DRIVERS", "self,tcp").with("FERRY_TCP_INTERFACES", "lo");
        String line = sizes(2, tcp).get(1);
        assertTrue(line.contains("rails 0=tcp 1=self;"), line);
    }

    /**
     * A rank that waits long dozes in the drivers' blocking waits. A message wakes it, and so does
     * a peer's first contact: a connection request, which the engine otherwise looks for every
     * 64th pass only (64 dozes, over a minute, would pass before it took the peer up).
     */
    @Test
    void aDozingRankIsWokenByAMessageAndByAPeersFirstContact() throws Exception {
        Settings shm = Settings.fromEnvironment().with("FERRY_SAME_PROCESS", "node").with("FERRY_DRIVERS", "self,shm");
        Settings tcp = Settings.fromEnvironment().with("FERRY_SAME_PROCESS", "node").with("FERRY_RANKS_PER_NODE", "1")
                .with("FERRY_DRIVERS", "self,tcp").with("FERRY_TCP_INTERFACES", "lo");
        for (Settings settings : new Settings[] {shm, tcp}) {
            java.util.concurrent.atomic.AtomicReferenceArray<Engine> engines = new java.util.concurrent.atomic.AtomicReferenceArray<>(3);
            java.util.concurrent.atomic.AtomicLong dozesAtFirst = new java.util.concurrent.atomic.AtomicLong(Long.MAX_VALUE);
            Duration wake = Duration.ofSeconds(20);
            InProcessJob.run(3, BOUND, boot -> {
                Inbox inbox = new Inbox();
                try (Engine e = Engine.init(new EngineConfig().bootstrap(boot).settings(settings), inbox)) {
                    inbox.attach(e);
                    engines.set(e.rank(), e);
                    MemorySegment small = Arena.ofAuto().allocate(8);
                    if (e.rank() == 1) {
                        SendRequest hello = new SendRequest();
                        e.send(hello.to(0, 0, small)); // connects 1 and 0: rank 0's next message finds the way open
                        hello.join(BOUND);
                        inbox.take(m -> m.source() == 0, wake).drop();
                        dozesAtFirst.set(e.dozes());
                        inbox.take(m -> m.source() == 2, wake).drop(); // rank 2's first packet to anyone
                        for (int peer : new int[] {0, 2}) {
                            SendRequest done = new SendRequest();
                            e.send(done.to(peer, 9, small));
                            done.join(BOUND);
                        }
                    } else {
                        if (e.rank() == 0) {
                            inbox.take(m -> m.source() == 1, BOUND).drop();
                        }
                        // rank 0 sends once rank 1 dozes, rank 2 once it dozes again after that message
                        long start = System.nanoTime();
                        while (engines.get(1) == null || engines.get(1).dozes() <= (e.rank() == 0 ? 0 : dozesAtFirst.get())) {
                            if (System.nanoTime() - start > BOUND.toNanos()) {
                                throw new IllegalStateException("rank 1 never dozed");
                            }
                            e.progress();
                            dev.ferry.spi.IdleStrategy.DEFAULT.idle(System.nanoTime() - start);
                        }
                        SendRequest s = new SendRequest();
                        e.send(s.to(1, 1, small));
                        s.join(BOUND);
                        inbox.take(m -> m.source() == 1, BOUND).drop();
                    }
                }
            });
        }
    }

    @Test
    void aRankThatThrowsFailsTheJobNamingItAndItsPeerHearsOfIt() {
        Map<Integer, String> heard = new ConcurrentHashMap<>();
        InProcessJob.RankFailedException x = assertThrows(InProcessJob.RankFailedException.class, () -> InProcessJob.run(2, BOUND, boot -> {
            Inbox inbox = new Inbox();
            try (Engine e = Engine.init(new EngineConfig().bootstrap(boot), inbox)) {
                inbox.attach(e);
                MemorySegment small = Arena.ofAuto().allocate(64);
                if (e.rank() == 1) {
                    SendRequest s = new SendRequest();
                    e.send(s.to(0, 1, small));
                    s.join(BOUND);
                    throw new IllegalStateException("rank 1 fails on purpose");
                }
                inbox.take(BOUND);
                long start = System.nanoTime();
                while (inbox.failure() == null) { // a second message that never comes
                    if (System.nanoTime() - start > BOUND.toNanos()) {
                        throw new IllegalStateException("rank 1's departure not seen within " + BOUND);
                    }
                    inbox.poll();
                    dev.ferry.spi.IdleStrategy.DEFAULT.idle(System.nanoTime() - start);
                }
                heard.put(0, inbox.failure());
            }
        }));
        assertEquals(1, x.rank());
        assertEquals("rank 1 fails on purpose", x.getCause().getMessage());
        assertTrue(heard.containsKey(0), "rank 0 heard nothing");
    }
}
