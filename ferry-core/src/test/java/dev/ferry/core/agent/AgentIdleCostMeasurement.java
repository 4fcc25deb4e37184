package dev.ferry.core.agent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Not a test (surefire runs it only when named): the CPU two idle agents of this process take in
 * 10 s with the link between them closed idle, probed (a rank attached to each) and not (none),
 * three rounds. For docs/performance.md:
 * {@code mvn -o test -pl ferry-core -Dtest=AgentIdleCostMeasurement -Dsurefire.failIfNoSpecifiedTests=false}
 */
class AgentIdleCostMeasurement {
    @TempDir
    Path dir;

    private static void await(java.util.function.BooleanSupplier done, String what) {
        if (!dev.ferry.spi.IdleStrategy.DEFAULT.await(done, Duration.ofSeconds(30).toNanos())) {
            throw new AssertionError("not within 30 s: " + what);
        }
    }

    @Test
    void measure() throws Exception {
        var mx = ManagementFactory.getThreadMXBean();
        for (int round = 0; round < 3; round++) {
            for (boolean attached : new boolean[] {true, false}) {
                String tag = "r" + round + attached;
                Agent a = Agent.start(new Agent.Config(dir.resolve(tag + "a.sock"), "job").withChannels(dir)
                        .withLinkAddress(InetAddress.getByName("127.0.0.1")).withLinks(Duration.ofMillis(100), 0));
                Agent b = Agent.start(new Agent.Config(dir.resolve(tag + "b.sock"), "job").withChannels(dir)
                        .withLinkAddress(InetAddress.getByName("127.0.0.2")).withLinks(Duration.ofMillis(100), 0));
                Thread ta = Thread.ofPlatform().daemon().start(a::run), tb = Thread.ofPlatform().daemon().start(b::run);
                AgentClient r0 = AgentClient.connect(dir.resolve(tag + "a.sock"), "job", Duration.ofSeconds(10));
                AgentClient r1 = AgentClient.connect(dir.resolve(tag + "b.sock"), "job", Duration.ofSeconds(10));
                r0.attach(0);
                r1.attach(1);
                r0.route(1, b.linkAddress());
                r1.route(0, a.linkAddress());
                var out = r0.outRing();
                await(() -> out.claim(8) >= 0, "room in the OUT ring");
                out.commit(1, ChannelLayout.PACKET, 0, 8);
                r0.wakeAgent();
                await(() -> r1.inRing().next() >= 0, "the record through the link");
                await(() -> a.openLinks() + b.openLinks() == 0, "the link closed idle");
                if (!attached) {
                    r0.close();
                    r1.close();
                    await(() -> a.connected() + b.connected() == 0, "the ranks gone");
                }
                Thread.sleep(1500); // past the second before probes start
                long c0 = mx.getThreadCpuTime(ta.threadId()) + mx.getThreadCpuTime(tb.threadId()), p0 = a.linkProbes() + b.linkProbes();
                Thread.sleep(10_000);
                long c1 = mx.getThreadCpuTime(ta.threadId()) + mx.getThreadCpuTime(tb.threadId()), p1 = a.linkProbes() + b.linkProbes();
                System.out.printf("agent idle cost, round %d attached=%s: two agents' CPU %.1f ms in 10 s, probes %d%n", round, attached, (c1 - c0) / 1e6, p1 - p0);
                if (attached) {
                    r0.close();
                    r1.close();
                }
                a.close();
                b.close();
            }
        }
    }
}
