package dev.ferry.driver.self;

import dev.ferry.conformance.PeerLink;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.DriverInstance;
import dev.ferry.spi.DriverUrl;
import dev.ferry.spi.Hints;
import dev.ferry.spi.Status;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The self driver reaches only its own process: a URL from another process is unreachable
 * (BROKEN at once, never a hang). Also exercises the kit's child-JVM peer.
 */
class SelfAcrossProcessesTest {
    @Test
    void aUrlFromAnotherProcessIsUnreachable() {
        PeerLink peer = PeerLink.inProcess(SelfDriver.class, List.of());
        try (DriverContext ctx = new SelfDriver().newContext(Hints.single())) {
            ctx.properties();
            ctx.init();
            String[] urls = peer.call("open 2").split(" ");
            assertEquals(2, urls.length);
            DriverInstance inst = ctx.newInstance();
            assertEquals(Status.BROKEN, inst.connectAsync(DriverUrl.parse(urls[0])));
            assertEquals(Status.BROKEN, inst.connectWait());
            assertEquals("ok", "ok" + peer.call("report"));
            peer.kill();
            assertThrows(AssertionError.class, () -> peer.call("report"), "a killed peer answers nothing");
        } finally {
            peer.close();
        }
    }

    @Test
    void connectWaitEndsWhenTheOtherContextCloses() {
        SelfDriver d = new SelfDriver();
        try (DriverContext a = d.newContext(Hints.single())) {
            DriverContext b = d.newContext(Hints.single());
            a.properties();
            b.properties();
            a.init();
            DriverUrl ub = b.init();
            DriverInstance ia = a.newInstance();
            assertEquals(Status.DONE, ia.connectAsync(ub));
            b.close(); // never connects back
            Status s = ia.connectWait();
            assertTrue(s == Status.BROKEN, "connectWait to a closed context answered " + s);
        }
    }
}
