package dev.ferry.core.agent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The node agent with real sockets, rings and processes: who it admits, what a rank can make it
 * touch, and what happens when a rank or the agent dies.
 */
class AgentTest {
    static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    /** An agent on a thread of this process, its channels in the test's directory. */
    private Agent agent(Agent.Config c) {
        Agent a = Agent.start(c.withChannels(dir));
        Thread t = new Thread(a::run, "agent");
        t.setDaemon(true);
        t.start();
        return a;
    }

    private Agent.Config config() {
        return new Agent.Config(dir.resolve("agent.sock"), "job-1");
    }

    private static void await(BooleanSupplier done, String what) {
        if (!dev.ferry.spi.IdleStrategy.DEFAULT.await(done, BOUND.toNanos())) {
            throw new AssertionError("not within " + BOUND + ": " + what);
        }
    }

    @Test
    void aRankPingsRegistersAndHasTheAgentCopyWithinItsMemory() throws Exception {
        try (Agent a = agent(config()); AgentClient c = AgentClient.connect(config().socket(), "job-1", BOUND); Arena arena = Arena.ofShared()) {
            assertEquals(ProcessHandle.current().pid(), c.agentPid(), "the agent runs in this test's process");
            assertEquals(42, c.ping(42));
            MemorySegment m = arena.allocate(8192, 64);
            for (int i = 0; i < 4096; i++) {
                m.set(ValueLayout.JAVA_BYTE, i, (byte) i);
            }
            long h = c.register(m);
            assertEquals(4096, c.copy(h, 0, h, 4096, 4096));
            for (int i = 0; i < 4096; i++) {
                assertEquals((byte) i, m.get(ValueLayout.JAVA_BYTE, 4096 + i), "byte " + i + " copied by the agent");
            }
            c.deregister(h);
            AgentException gone = assertThrows(AgentException.class, () -> c.copy(h, 0, h, 1, 1));
            assertEquals(AgentError.NOT_REGISTERED, gone.error());
            assertEquals(1, a.admitted());
        }
    }

    /** MAP: the agent maps a rank's memory in a shared mapping of a file, and says no to any other. */
    @Test
    void theAgentMapsARanksSharedFileMemoryAndNoOther() throws Exception {
        try (Agent a = agent(config()); AgentClient c = AgentClient.connect(config().socket(), "job-1", BOUND); Arena arena = Arena.ofShared();
             java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(dir.resolve("arena"), java.nio.file.StandardOpenOption.CREATE,
                     java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.allocate(1), 65535);
            MemorySegment shared = ch.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0, 65536, arena);
            assertTrue(c.map(shared.address() + 4096, 8192));
            assertFalse(c.map(arena.allocate(8192, 4096).address(), 8192), "anonymous memory: reached as ever");
            assertEquals(AgentError.BAD_ARGUMENTS, assertThrows(AgentException.class, () -> c.map(shared.address(), 0)).error());
            assertEquals(AgentError.UNREACHABLE, assertThrows(AgentException.class, () -> c.map(8, 4096)).error(), "no mapping there");
            assertEquals(0, c.linkCounts()[4], "no pull moved through it yet");
        }
    }

    /**
     * An agent with nothing to do sleeps on its bell, and a rank's command wakes it: the sleep
     * here has no end of its own, so a command the bell did not announce would wait for the test's
     * bound. Each round waits until the agent sleeps, then pings.
     */
    @Test
    void anIdleAgentSleepsAndEachCommandWakesIt() throws Exception {
        Agent a = Agent.start(config().withChannels(dir));
        a.maxSleep(Duration.ofHours(1));
        Thread t = Thread.ofPlatform().daemon().name("agent").start(a::run);
        try (a; AgentClient c = AgentClient.connect(config().socket(), "job-1", BOUND)) {
            MemorySegment ch = c.channel();
            for (int i = 0; i < 50; i++) {
                long before = a.sleeps();
                await(a::asleep, "the agent sleeps");
                assertEquals(1, ch.get(ValueLayout.JAVA_INT, ChannelLayout.AGENT_SLEEPS), "and has said so in the rank's channel");
                assertEquals(i, c.ping(i));
                assertTrue(a.sleeps() > before, "the agent slept before ping " + i);
            }
            try (AgentClient second = AgentClient.connect(config().socket(), "job-1", BOUND)) {
                assertEquals(7, second.ping(7), "a rank that comes while the agent sleeps is greeted");
            }
            await(() -> a.connected() == 1, "a rank that leaves while the agent sleeps is freed");
        }
        t.join(BOUND.toMillis());
        assertFalse(t.isAlive(), "closing ends a sleeping agent's loop");
    }

    @Test
    void anAsyncCopyMovesWhileTheRankGoesOnAndItsCounterSaysWhenItIsDone() throws Exception {
        long n = 48L << 20;
        try (Agent a = agent(config()); AgentClient c = AgentClient.connect(config().socket(), "job-1", BOUND); Arena arena = Arena.ofShared()) {
            MemorySegment src = arena.allocate(n, 4096), dst = arena.allocate(n, 4096);
            for (long i = 0; i < n / 8; i++) {
                src.setAtIndex(ValueLayout.JAVA_LONG, i, i * 31 + 7);
            }
            long from = c.register(src), to = c.register(dst);
            c.copyAsync(from, 0, to, 0, n / 2, 3);
            c.copyAsync(from, n / 2, to, n / 2, n / 2, 4); // queued behind the first: the agent takes a rank's copies in order
            c.awaitCounter(4, n / 2);
            assertEquals(n / 2, c.counter(3), "the first was done before the second");
            assertEquals(-1, src.mismatch(dst), "every byte copied");
            c.copyAsync(to, 0, from, 0, 4096, 3);
            c.awaitCounter(3, n / 2 + 4096);
            assertEquals(AgentError.OUT_OF_BOUNDS, assertThrows(AgentException.class, () -> c.copyAsync(from, n - 8, to, 0, 16, 3)).error(),
                    "refused as it is posted");
            assertThrows(IllegalArgumentException.class, () -> c.copyAsync(from, 0, to, 0, 8, ChannelLayout.COUNTERS));
            assertEquals(n / 2 + 4096, c.counter(3), "refusals count nothing");
        }
    }

    /** Runs {@code call} on a thread of its own (it waits for the agent, which this thread drives). */
    private static <T> CompletableFuture<T> posted(Supplier<T> call) {
        return CompletableFuture.supplyAsync(call, r -> Thread.ofPlatform().daemon().start(r)); // not the common pool: one thread on 2 cores
    }

    @Test
    void aQueuedCopyWhoseMemoryIsDeregisteredFailsItsCounter() throws Exception {
        long n = 8L << 20;
        // the agent driven here, a pass at a time: what it does between two commands is known
        try (Agent a = Agent.start(config().withChannels(dir)); Arena arena = Arena.ofShared()) {
            CompletableFuture<AgentClient> connecting = posted(() -> AgentClient.connect(config().socket(), "job-1", BOUND));
            AgentClient c = drive(a, connecting);
            MemorySegment src = arena.allocate(n, 4096), dst = arena.allocate(n, 4096);
            long from = drive(a, posted(() -> c.register(src))), to = drive(a, posted(() -> c.register(dst)));
            CompletableFuture<Object> copy = posted(() -> {
                c.copyAsync(from, 0, to, 0, n, 5);
                return null;
            });
            await(() -> c.commandsWaiting() == 1, "the copy is posted");
            CompletableFuture<Object> deregister = posted(() -> {
                c.deregister(from);
                return null;
            });
            await(() -> c.commandsWaiting() == 2, "the deregistration is posted behind it");
            a.duty(); // queues the copy, deregisters its source, then tries the copy's first stage
            copy.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            deregister.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            AgentException e = assertThrows(AgentException.class, () -> c.awaitCounter(5, n));
            assertEquals(AgentError.NOT_REGISTERED, e.error());
            assertEquals(0, c.counter(5), "no byte counted");
            assertEquals(-1, dst.mismatch(arena.allocate(n)), "no byte copied");
            c.close();
        }
    }

    /** Drives the agent a pass at a time until {@code f} is done. */
    private static <T> T drive(Agent a, CompletableFuture<T> f) throws Exception {
        long end = System.nanoTime() + BOUND.toNanos();
        while (!f.isDone()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("the call did not complete within " + BOUND);
            }
            a.duty();
        }
        return f.get();
    }

    @Test
    void aRankCannotMakeTheAgentTouchMemoryItDidNotRegister() throws Exception {
        try (Agent a = agent(config()); Arena arena = Arena.ofShared();
             AgentClient one = AgentClient.connect(config().socket(), "job-1", BOUND);
             AgentClient two = AgentClient.connect(config().socket(), "job-1", BOUND)) {
            MemorySegment mine = arena.allocate(4096, 64), theirs = arena.allocate(4096, 64);
            mine.fill((byte) 1);
            theirs.fill((byte) 2);
            long h1 = one.register(mine);
            long h2 = two.register(theirs);
            // one's handles mean nothing on two's channel, and the other way round
            long foreign = h1 == h2 ? h1 + 1 : h2;
            assertEquals(AgentError.NOT_REGISTERED, assertThrows(AgentException.class, () -> one.copy(h1, 0, foreign, 0, 16)).error());
            assertEquals(AgentError.OUT_OF_BOUNDS, assertThrows(AgentException.class, () -> one.copy(h1, 0, h1, 4000, 200)).error());
            assertEquals(AgentError.OUT_OF_BOUNDS, assertThrows(AgentException.class, () -> two.copy(h2, 4095, h2, 0, 2)).error());
            for (int i = 0; i < 4096; i++) {
                assertEquals(1, mine.get(ValueLayout.JAVA_BYTE, i));
                assertEquals(2, theirs.get(ValueLayout.JAVA_BYTE, i), "nothing was touched");
            }
            assertThrows(IllegalArgumentException.class, () -> one.register(MemorySegment.ofArray(new byte[8])), "heap memory moves: not registered");
        }
    }

    @Test
    void theAgentRefusesAnotherJobAndAnotherUser() throws Exception {
        try (Agent a = agent(config())) {
            AgentException key = assertThrows(AgentException.class, () -> AgentClient.connect(config().socket(), "job-2", BOUND));
            assertTrue(key.getMessage().contains("another job"), key.getMessage());
        }
        // an agent that serves another user: the kernel's word on who connects (SO_PEERCRED) is ours, so it refuses
        Agent.Config other = config().withUid(AgentSocket.uid() + 1);
        try (Agent a = agent(other)) {
            AgentException user = assertThrows(AgentException.class, () -> AgentClient.connect(other.socket(), "job-1", BOUND));
            assertTrue(user.getMessage().contains("another user"), user.getMessage());
            assertEquals(0, a.admitted());
        }
        AgentException none = assertThrows(AgentException.class, () -> AgentClient.connect(dir.resolve("nobody.sock"), "job-1", BOUND));
        assertEquals(AgentError.ABSENT, none.error(), none.getMessage());
    }

    /** Greets the agent at the socket in args[0] with the key args[1]; prints the answer's status, or why it could not. */
    private static final String GREETER = """
            import java.nio.*;
            import java.nio.channels.SocketChannel;
            public class Greeter {
                public static void main(String[] args) throws Exception {
                    try (SocketChannel c = SocketChannel.open(java.net.UnixDomainSocketAddress.of(args[0]))) {
                        byte[] key = args[1].getBytes("UTF-8");
                        ByteBuffer b = ByteBuffer.allocate(8 + key.length).order(ByteOrder.LITTLE_ENDIAN);
                        b.putInt(0x4f4c4846).putInt(key.length).put(key).flip();
                        while (b.hasRemaining()) c.write(b);
                        ByteBuffer r = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
                        while (r.hasRemaining() && c.read(r) >= 0) { }
                        System.out.println(r.hasRemaining() ? "closed" : "status " + r.getInt(0));
                    } catch (java.io.IOException e) {
                        System.out.println("cannot connect: " + e.getMessage());
                    }
                }
            }
            """;

    /** What the greeter says, run as the user nobody (65534). */
    private String greetAsNobody(Path greeter, Path socket) throws Exception {
        String jvm = ProcessHandle.current().info().command().orElseThrow();
        Process p = new ProcessBuilder("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", jvm, "-XX:-UsePerfData",
                greeter.toString(), socket.toString(), "job-1").directory(Path.of("/").toFile()).redirectErrorStream(true).start();
        assertTrue(p.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS), "the greeter did not end within " + BOUND);
        return new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
    }

    /**
     * A process of another user, for real (run as nobody; root alone can): the socket's mode, its
     * user's alone, has the kernel refuse the connection; and with the mode opened to everyone
     * the agent still refuses the greeting though its key is right, by the kernel's word on who
     * connected (SO_PEERCRED). Nobody is admitted.
     */
    @Test
    void aProcessOfAnotherUserCannotConnect() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(AgentSocket.uid() == 0 && Files.isExecutable(Path.of("/usr/bin/setpriv")),
                "running a process as another user needs root and setpriv");
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x")); // others may pass, not look
        Path greeter = dir.resolve("Greeter.java");
        Files.writeString(greeter, GREETER);
        Files.setPosixFilePermissions(greeter, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        try (Agent a = agent(config())) {
            Path socket = config().socket();
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
            String kept = greetAsNobody(greeter, socket);
            assertTrue(kept.startsWith("cannot connect") && kept.contains("Permission denied"), kept);
            Files.setPosixFilePermissions(socket, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
            assertEquals("status " + AgentHello.WRONG_USER, greetAsNobody(greeter, socket));
            assertEquals(0, a.admitted());
        }
    }

    @Test
    void aRankThatDiesHasItsRingAndRegistrationsFreed() throws Exception {
        try (Agent a = agent(config()); Peer rank = new Peer("rank", config().socket().toString(), "job-1")) {
            assertTrue(rank.line().startsWith("registered "));
            assertEquals(1, a.connected());
            try (var files = Files.list(dir)) {
                assertEquals(1, files.filter(f -> f.getFileName().toString().startsWith("ferry-agent-")).count(), "its channel file");
            }
            rank.kill();
            await(() -> a.connected() == 0, "the agent notices the rank died");
            try (var files = Files.list(dir)) {
                assertEquals(0, files.filter(f -> f.getFileName().toString().startsWith("ferry-agent-")).count(), "its channel file is gone");
            }
        }
    }

    @Test
    void anAgentThatDiesFailsTheRanksCallsWithinTheBound() throws Exception {
        Path socket = dir.resolve("dying.sock");
        Peer agent = new Peer("agent", socket.toString(), "job-1", dir.toString());
        try (agent) {
            assertTrue(agent.line().startsWith("listening "));
            try (AgentClient c = AgentClient.connect(socket, "job-1", Duration.ofSeconds(5))) {
                assertEquals(7, c.ping(7));
                agent.kill();
                long start = System.nanoTime();
                AgentException e = assertThrows(AgentException.class, () -> c.ping(8));
                assertTrue(e.getMessage().contains("has died"), e.getMessage());
                assertTrue(System.nanoTime() - start < Duration.ofSeconds(5).toNanos(), "failed at once, not after the bound");
            }
        }
        // the rank, closing, removed the channel file its dead agent could not; the socket stayed behind, and a new agent takes it over
        try (var files = Files.list(dir)) {
            assertEquals(0, files.filter(f -> f.getFileName().toString().startsWith("ferry-agent-" + agent.pid() + "-")).count());
        }
        assertTrue(Files.exists(socket), "the dead agent's socket file");
        try (Agent a = agent(new Agent.Config(socket, "job-1")); AgentClient c = AgentClient.connect(socket, "job-1", BOUND)) {
            assertEquals(9, c.ping(9));
            try (var files = Files.list(dir)) {
                assertEquals(0, files.filter(f -> f.getFileName().toString().startsWith("ferry-agent-" + agent.pid() + "-")).count());
            }
        }
    }

    @Test
    void closingTheAgentFailsWaitingAndLaterCallsAndAnIdleAgentEndsByItself() throws Exception {
        Agent a = agent(config());
        AgentClient c = AgentClient.connect(config().socket(), "job-1", BOUND);
        assertEquals(1, c.ping(1));
        a.close();
        await(() -> !Files.exists(config().socket()), "the agent's socket goes");
        AgentException e = assertThrows(AgentException.class, () -> c.ping(2));
        assertTrue(e.getMessage().contains("has closed"), e.getMessage());
        c.close();

        Agent idle = Agent.start(new Agent.Config(dir.resolve("idle.sock"), "job-1", AgentSocket.uid(), dir, 4, 256, Duration.ofMillis(200), 4096, null, false, Duration.ZERO, 0));
        Thread t = new Thread(idle::run);
        t.start();
        t.join(BOUND.toMillis());
        assertFalse(t.isAlive(), "an agent with nobody to serve ends after its idle time");
        assertFalse(Files.exists(dir.resolve("idle.sock")));
    }
}
