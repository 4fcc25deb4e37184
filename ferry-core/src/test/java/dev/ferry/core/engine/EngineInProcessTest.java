package dev.ferry.core.engine;

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
                    Engine.backoff(System.nanoTime() - start);
                }
                heard.put(0, inbox.failure());
            }
        }));
        assertEquals(1, x.rank());
        assertEquals("rank 1 fails on purpose", x.getCause().getMessage());
        assertTrue(heard.containsKey(0), "rank 0 heard nothing");
    }
}
