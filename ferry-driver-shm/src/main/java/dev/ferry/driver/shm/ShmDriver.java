package dev.ferry.driver.shm;

import dev.ferry.spi.Driver;
import dev.ferry.spi.DriverContext;
import dev.ferry.spi.Hints;
import dev.ferry.spi.Setting;

import java.util.List;

/**
 * The {@code shm} driver, Ferry's local transport (seed 001): processes of one node exchange
 * packets through files in /dev/shm. Small packets are written by the sender in place in a slot
 * of the receiver's ring; large ones are pulled by the receiver with one copy (process_vm_readv
 * from the sender's memory, or a memcpy from the sender's shared arena), or streamed through a
 * bounce area where the kernel refuses that. A receiver with nothing to do sleeps on a futex.
 *
 * <pre>{@code
 * DriverContext ctx = new ShmDriver().newContext(new Hints(size, rank, true, Map.of(Hints.JOB_ID, job)));
 * ctx.properties();
 * DriverUrl url = ctx.init();                 // names this context's file in /dev/shm
 * MemorySegment buf = ctx.allocate(4 << 20);  // shared arena: zero copy to peers
 * }</pre>
 */
public final class ShmDriver implements Driver {
    @Override
    public String name() {
        return "shm";
    }

    @Override
    public String description() {
        return "shared memory (/dev/shm): in-place ring slots, futex wake-ups, single copy by process_vm_readv, shared arena";
    }

    @Override
    public List<Setting> settings() {
        return List.of(ShmContext.SINGLE_COPY, ShmContext.SPLIT_PULL, ShmContext.RINGS);
    }

    @Override
    public DriverContext newContext(Hints hints) {
        return new ShmContext(hints);
    }
}
