package dev.ferry.bench;

import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;

/**
 * The driver SPI by hand: finds the {@code self} driver, opens two contexts, connects them, and
 * bounces a counter between two threads. Shows the whole life cycle of seed 000: properties,
 * init, connect, post and poll, disconnect, close.
 *
 * <pre>
 *   java -cp ... dev.ferry.bench.DriverPingPong [ROUNDS]
 * </pre>
 */
public final class DriverPingPong {
    private DriverPingPong() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        DiscoveredDriver self = DriverCatalog.discover().find("self").orElseThrow();
        try (DriverContext a = self.driver().newContext(new Hints(2, 0, true, Map.of()));
             DriverContext b = self.driver().newContext(new Hints(2, 1, true, Map.of()))) {
            a.properties();                       // exactly once, before init
            b.properties();
            DriverUrl urlA = a.init();            // what a launcher would hand to the other process
            DriverUrl urlB = b.init();
            DriverInstance toB = a.newInstance(); // one instance per gate
            DriverInstance toA = b.newInstance();
            toB.connectAsync(urlB);               // both sides connect, neither blocks
            toA.connectAsync(urlA);
            toB.connectWait();
            toA.connectWait();

            Thread bouncer = Thread.ofPlatform().start(() -> bounce(toA, rounds));
            long last = bounce(toB, rounds, 0);
            bouncer.join();
            System.out.println("ping-pong over the " + self.name() + " driver: " + rounds + " rounds, last value " + last);
            toB.disconnect();
            toA.disconnect();
        }
    }

    /** Receives a counter and sends it back plus one, {@code rounds} times. */
    private static void bounce(DriverInstance inst, int rounds) {
        MemorySegment m = Arena.ofAuto().allocate(8);
        Packet p = new Packet();
        IoVec iov = IoVec.of(m);
        for (int i = 0; i < rounds; i++) {
            recv(inst, p, iov);
            m.set(ValueLayout.JAVA_LONG, 0, m.get(ValueLayout.JAVA_LONG, 0) + 1);
            send(inst, p, iov);
        }
    }

    /** Starts with {@code value}, sends, and expects it back plus one each round. */
    private static long bounce(DriverInstance inst, int rounds, long value) {
        MemorySegment m = Arena.ofAuto().allocate(8);
        Packet p = new Packet();
        IoVec iov = IoVec.of(m);
        for (int i = 0; i < rounds; i++) {
            m.set(ValueLayout.JAVA_LONG, 0, value);
            send(inst, p, iov);
            recv(inst, p, iov);
            long back = m.get(ValueLayout.JAVA_LONG, 0);
            if (back != value + 1) {
                throw new IllegalStateException("sent " + value + ", got back " + back);
            }
            value = back + 1;
        }
        return value - 1;
    }

    private static void send(DriverInstance inst, Packet p, IoVec iov) {
        p.reset().useIov(iov);
        expect(inst.sendPost(p), "sendPost");
        Status s;
        while ((s = inst.sendPoll(p)) == Status.NOT_YET) {
            Thread.onSpinWait();
        }
        expect(s, "sendPoll");
    }

    private static void recv(DriverInstance inst, Packet p, IoVec iov) {
        p.reset().useIov(iov);
        expect(inst.recvPost(p), "recvPost");
        Status s;
        while ((s = inst.recvPoll(p)) == Status.NOT_YET) {
            Thread.onSpinWait();
        }
        expect(s, "recvPoll");
    }

    private static void expect(Status s, String call) {
        if (s != Status.DONE) {
            throw new IllegalStateException(call + " answered " + s);
        }
    }
}
