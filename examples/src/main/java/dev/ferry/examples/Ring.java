package dev.ferry.examples;

import dev.ferry.core.boot.WireUp;
import dev.ferry.core.config.FerrySettings;
import dev.ferry.core.driver.DiscoveredDriver;
import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.core.driver.DriverSelection;
import dev.ferry.launch.pmi.Bootstrap;
import dev.ferry.launch.pmi.Bootstraps;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.IoVec;
import dev.ferry.spi.Packet;
import dev.ferry.spi.Status;
import dev.ferry.spi.Transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * A token goes around the ranks ROUNDS times (default 100) over the first driver that crosses
 * processes, each rank waiting for it with the driver's blocking wait-any: with more ranks than
 * cores, a rank that spun instead of sleeping would starve the one holding the token.
 *
 * <pre>
 *   bin/ferry run -n 8 --drivers shm --example ring 1000
 * </pre>
 */
public final class Ring {
    private Ring() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        List<DiscoveredDriver> drivers = DriverSelection.parse(FerrySettings.DRIVERS.value()).select(DriverCatalog.discover().all());
        try (Bootstrap boot = Bootstraps.fromEnvironment(); WireUp wire = WireUp.exchange(boot, drivers)) {
            int n = wire.size();
            int rank = wire.rank();
            if (n == 1) {
                System.out.println("ring: one rank, nothing to pass");
                return;
            }
            DiscoveredDriver d = drivers.stream().filter(x -> x.properties().capabilities().transport() != Transport.SELF)
                    .filter(x -> wire.context(x.name()) != null).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no driver that crosses processes is selected"));
            DriverContext ctx = wire.context(d.name());
            int next = (rank + 1) % n;
            int prev = (rank - 1 + n) % n;
            DriverInstance toNext = ctx.newInstance();
            check(toNext.connectAsync(wire.url(next, d.name())), "connect to " + next);
            DriverInstance fromPrev = toNext;
            if (n > 2) {
                fromPrev = ctx.newInstance();
                check(fromPrev.connectAsync(wire.url(prev, d.name())), "connect to " + prev);
                waitConnected(fromPrev);
            }
            waitConnected(toNext);

            MemorySegment out = Arena.ofAuto().allocate(8);
            MemorySegment in = Arena.ofAuto().allocate(8);
            Packet sp = new Packet();
            Packet rp = new Packet();
            InstanceRef ready = new InstanceRef();
            if (rank == 0) {
                send(toNext, sp, out, 1);
            }
            while (true) {
                Status w = ctx.recvWaitAny(ready); // sleeps while the token is elsewhere
                if (w == Status.NOT_YET) {
                    continue; // a neighbour asked to connect: we connect to both already
                }
                check(w, "wait-any");
                if (ready.instance != fromPrev) {
                    // wait-any also reports a neighbour's departure: the next rank may finish before us
                    rp.reset().useIov(IoVec.of(in));
                    if (ready.instance.recvPost(rp) == Status.DONE) {
                        Status gone = ready.instance.recvPoll(rp);
                        if (gone == Status.DONE) {
                            throw new IllegalStateException("a packet from the wrong neighbour");
                        }
                    }
                    continue;
                }
                rp.reset().useIov(IoVec.of(in));
                check(fromPrev.recvPost(rp), "recvPost");
                Status s;
                while ((s = fromPrev.recvPoll(rp)) == Status.NOT_YET) {
                    Thread.onSpinWait();
                }
                check(s, "recvPoll");
                long token = in.get(ValueLayout.JAVA_LONG, 0);
                if (token < 0) { // the stop signal: pass it on once, then end
                    if (rank != 0) {
                        send(toNext, sp, out, -1);
                    }
                    break;
                }
                if (rank == 0) {
                    send(toNext, sp, out, token == rounds ? -1 : token + 1);
                } else {
                    send(toNext, sp, out, token);
                }
            }
            toNext.disconnect();
            if (fromPrev != toNext) {
                fromPrev.disconnect();
            }
            if (rank == 0) {
                System.out.println("ring: the token went around " + n + " ranks " + rounds + " times over " + d.name());
            }
        }
    }

    private static void waitConnected(DriverInstance inst) {
        Status s = inst.connectWait();
        if (s != Status.DONE && s != Status.NOT_IMPLEMENTED) {
            throw new IllegalStateException("connectWait answered " + s);
        }
    }

    private static void send(DriverInstance inst, Packet p, MemorySegment m, long value) {
        m.set(ValueLayout.JAVA_LONG, 0, value);
        p.reset().useIov(IoVec.of(m));
        Status s;
        while ((s = inst.sendPost(p)) == Status.NOT_YET) {
            Thread.onSpinWait();
        }
        check(s, "sendPost");
        while ((s = inst.sendPoll(p)) == Status.NOT_YET) {
            Thread.onSpinWait();
        }
        check(s, "sendPoll");
    }

    private static void check(Status s, String what) {
        if (s != Status.DONE) {
            throw new IllegalStateException(what + " answered " + s);
        }
    }
}
