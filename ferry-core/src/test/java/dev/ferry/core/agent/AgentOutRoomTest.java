package dev.ferry.core.agent;

import dev.ferry.spi.DataLayout;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Settings;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A send that finds its OUT ring full, and whose rank then sleeps on the bell, goes on as soon
 * as the agent has made room: the agent rings for it, and a wait that begins after that ring
 * ends at once (the bell moved since the last wait). (Without it a rank asleep in a long wait sent a ring's worth a doze: a 64 MiB
 * message took a minute.) Two ranks of one agent, whose loop the test runs itself.
 */
class AgentOutRoomTest {
    private static final Duration BOUND = Duration.ofSeconds(30);
    /** Three rings' worth: rank 0's OUT ring and rank 1's IN ring both fill before it has all gone. */
    private static final int BYTES = 3 << 20;

    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new ArrayList<>();
    private Agent agent;
    private AgentContext c0, c1;
    private AgentInstance to1, from0;

    private static void await(BooleanSupplier done, String what) {
        if (!dev.ferry.spi.IdleStrategy.DEFAULT.await(done, BOUND.toNanos())) {
            throw new AssertionError("not within " + BOUND + ": " + what);
        }
    }

    /** The agent, ranks 0 and 1 on it and each one's instance to the other, the agent's loop running on a thread until the test takes it over. */
    private void start() throws Exception {
        Path socket = dir.resolve("agent.sock");
        agent = Agent.start(new Agent.Config(socket, "job-1").withChannels(dir));
        agent.maxSleep(Duration.ofHours(1)); // woken by the bell alone
        open.add(agent);
        AtomicBoolean own = new AtomicBoolean(true);
        Thread loop = new Thread(() -> {
            while (own.get()) {
                if (!agent.duty()) {
                    Thread.onSpinWait();
                }
            }
        }, "agent loop");
        loop.setDaemon(true);
        loop.start();
        c0 = context(0, socket);
        c1 = context(1, socket);
        DriverUrl u0 = c0.init(), u1 = c1.init();
        to1 = (AgentInstance) c0.newInstance();
        from0 = (AgentInstance) c1.newInstance();
        assertEquals(Status.DONE, to1.connectAsync(u1));
        assertEquals(Status.DONE, from0.connectAsync(u0));
        own.set(false);
        loop.join(BOUND.toMillis());
        assertFalse(loop.isAlive(), "the agent's loop is the test's now");
        // the greetings relayed and taken: nothing in either ring, so a wait on the bell sleeps
        await(() -> {
            agent.duty();
            c0.recvProbeAny(new InstanceRef());
            c1.recvProbeAny(new InstanceRef());
            return c0.out.isEmpty() && c1.out.isEmpty() && c0.in.isEmpty() && c1.in.isEmpty();
        }, "the greetings taken");
        // the bell rang for them: a wait ends at once on a ring since the last, and this one leaves it as it is now
        assertEquals(Status.NOT_YET, waitOnBell().get(BOUND.toSeconds(), TimeUnit.SECONDS), "the greetings' ring");
    }

    private AgentContext context(int rank, Path socket) {
        Settings s = Settings.defaults().with(AgentSettings.SOCKET.name(), socket.toString());
        AgentContext c = new AgentContext(new Hints(2, rank, true, java.util.Map.of(Hints.JOB_KEY, "job-1"), s));
        open.add(c::close);
        return c;
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    /** Rank 0 posts {@link #BYTES} bytes of a pattern to rank 1: more than its OUT ring holds, so the send waits for room. */
    private Packet fillOut() {
        MemorySegment m = Arena.ofAuto().allocate(BYTES);
        for (int i = 0; i < BYTES; i += 8) {
            m.set(ValueLayout.JAVA_LONG, i, i);
        }
        Packet p = new Packet().useData(DataLayout.contiguous(m));
        assertEquals(Status.DONE, to1.sendPost(p));
        assertEquals(Status.NOT_YET, to1.sendPoll(p), "the OUT ring is full");
        assertEquals(1, c0.client().channel().get(ValueLayout.JAVA_INT, ChannelLayout.OUT_WAITS), "rank 0 asked for room");
        return p;
    }

    /** Rank 0 waiting on its bell, as a dozing rank's watcher does. */
    private CompletableFuture<Status> waitOnBell() {
        return CompletableFuture.supplyAsync(() -> c0.recvWaitAny(new InstanceRef()));
    }

    /** The agent passes until rank 0's OUT ring has room again, and says so. */
    private void agentMakesRoom() {
        await(() -> {
            agent.duty();
            return c0.client().channel().get(ValueLayout.JAVA_INT, ChannelLayout.OUT_WAITS) == 0;
        }, "the agent takes records out of rank 0's ring and answers its ask");
    }

    @Test
    void aRankAsleepOnAFullOutRingIsWokenWhenTheAgentMakesRoom() throws Exception {
        start();
        Packet p = fillOut();
        CompletableFuture<Status> waiter = waitOnBell();
        await(() -> c0.client().channel().get(ValueLayout.JAVA_INT, ChannelLayout.RANK_SLEEPS) == 1, "rank 0 asleep on its bell");
        assertFalse(waiter.isDone(), "nothing came: the rank sleeps");
        agentMakesRoom();
        assertEquals(Status.NOT_YET, waiter.get(BOUND.toSeconds(), TimeUnit.SECONDS), "woken to send on");
        deliver(p);
    }

    @Test
    void aWaitThatBeginsAfterTheAgentMadeRoomEndsAtOnce() throws Exception {
        start();
        Packet p = fillOut();
        agentMakesRoom(); // the bell rang with nobody asleep on it
        assertEquals(Status.NOT_YET, waitOnBell().get(BOUND.toSeconds(), TimeUnit.SECONDS), "the room seen, not slept through");
        deliver(p);
    }

    /** Rank 1 receives the whole packet while rank 0 sends on and the agent relays: every byte as sent. */
    private void deliver(Packet sent) {
        MemorySegment in = Arena.ofAuto().allocate(BYTES);
        Packet r = new Packet().useData(DataLayout.contiguous(in));
        assertEquals(Status.DONE, from0.recvPost(r));
        boolean[] done = new boolean[2];
        await(() -> {
            agent.duty();
            if (!done[0]) {
                Status s = to1.sendPoll(sent);
                done[0] = s == Status.DONE;
                assertTrue(s == Status.DONE || s == Status.NOT_YET, "send " + s);
            }
            if (!done[1]) {
                Status s = from0.recvPoll(r);
                done[1] = s == Status.DONE;
                assertTrue(s == Status.DONE || s == Status.NOT_YET, "receive " + s);
            }
            return done[0] && done[1];
        }, "the packet sent and received");
        assertEquals(BYTES, r.length());
        for (int i = 0; i < BYTES; i += 8) {
            assertEquals(i, in.get(ValueLayout.JAVA_LONG, i), "byte " + i);
        }
    }
}
