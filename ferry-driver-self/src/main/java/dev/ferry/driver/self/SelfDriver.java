package dev.ferry.driver.self;

import dev.ferry.spi.Driver;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.Hints;

/**
 * The {@code self} driver: connects contexts of the same process, so a rank reaches itself (and
 * tests run both ends of a connection in one JVM). Small packets are written by the sender in
 * place in the receiver's ring; large ones are copied once, by the receiver, straight from the
 * sender's memory.
 *
 * <pre>{@code
 * Driver self = new SelfDriver();
 * DriverContext a = self.newContext(Hints.single()), b = self.newContext(Hints.single());
 * a.properties(); b.properties();
 * DriverUrl ua = a.init(), ub = b.init();
 * DriverInstance ia = a.newInstance(), ib = b.newInstance();
 * ia.connectAsync(ub); ib.connectAsync(ua);
 * ia.connectWait(); ib.connectWait();
 * }</pre>
 */
public final class SelfDriver implements Driver {
    @Override
    public String name() {
        return "self";
    }

    @Override
    public String description() {
        return "contexts of the same process: in-place ring slots for small packets, one copy for large ones";
    }

    @Override
    public DriverContext newContext(Hints hints) {
        return new SelfContext(hints);
    }
}
