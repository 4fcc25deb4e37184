package dev.ferry.core.engine;

import dev.ferry.core.gate.Gate;
import dev.ferry.core.rail.EngineContext;
import dev.ferry.core.rail.Rail;
import dev.ferry.spi.Transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Memory an engine's drivers can do more with ({@link Engine#memory()}): the local driver's
 * shared arena (a transfer between two such buffers is one memcpy; a peer on the node maps it by
 * a key, {@link Engine#peerMemory}), and registrations for drivers that need them for zero-copy
 * transfers (seed 003's validate and invalidate). Drivers that read any memory as it is (shm,
 * tcp) register nothing.
 *
 * <pre>{@code
 * MemorySegment window = engine.memory().allocate(1 << 20);
 * byte[] key = engine.memory().shareKey(window);        // hand it to a peer on this node
 * Object reg = engine.memory().register(buffer);        // ... engine.memory().deregister(reg)
 * }</pre>
 */
public final class SharedMemory {
    private final List<EngineContext> contexts;

    SharedMemory(List<EngineContext> contexts) {
        this.contexts = contexts;
    }

    /**
     * The local driver's shared arena where it has one, else ordinary off-heap memory. Page
     * aligned. The other drivers are told of arena memory ({@code DriverContext.prepareShared}):
     * the node agent's maps it too.
     */
    public MemorySegment allocate(long bytes) {
        for (EngineContext c : contexts) {
            if (c.caps().transport() == Transport.LOCAL) {
                MemorySegment m = c.context().allocate(bytes);
                if (m != null) {
                    for (EngineContext o : contexts) {
                        if (o != c) {
                            o.context().prepareShared(m);
                        }
                    }
                    return m;
                }
            }
        }
        return Arena.ofAuto().allocate(bytes, 4096);
    }

    /**
     * Publishes a table the layer above keeps in {@code memory} (from {@link #allocate}) for the
     * drivers that serve messages for this process from another one ({@code
     * DriverContext.offloadTable}: the node agent's); {@code kind} names its layout. Whether one
     * took it.
     */
    public boolean offloadTable(int kind, MemorySegment memory) {
        boolean taken = false;
        for (EngineContext c : contexts) {
            taken |= c.context().offloadTable(kind, memory);
        }
        return taken;
    }

    /**
     * The key a peer on this node maps {@code memory} (from {@link #allocate}) with, through
     * {@link Engine#peerMemory}: the name of the local driver's context
     * that shares it, then that driver's key ({@code DriverContext.shareKey}); null when no driver
     * can share it.
     */
    public byte[] shareKey(MemorySegment memory) {
        for (EngineContext c : contexts) {
            if (c.caps().transport() == Transport.LOCAL) {
                byte[] k = c.context().shareKey(memory);
                if (k != null) {
                    byte[] name = c.name().getBytes(StandardCharsets.UTF_8);
                    byte[] all = new byte[1 + name.length + k.length];
                    all[0] = (byte) name.length;
                    System.arraycopy(name, 0, all, 1, name.length);
                    System.arraycopy(k, 0, all, 1 + name.length, k.length);
                    return all;
                }
            }
        }
        return null;
    }

    /** Maps what {@code key} names through the open gate {@code g}'s local rail of that name; null when none can. */
    static MemorySegment map(Gate g, byte[] key) {
        if (key == null || key.length < 1 || key.length < 1 + (key[0] & 0xff)) {
            return null;
        }
        String name = new String(key, 1, key[0] & 0xff, StandardCharsets.UTF_8);
        for (Rail r : g.rails) {
            if (r.ec.name().equals(name) && r.ec.caps().transport() == Transport.LOCAL && r.out != null) {
                return r.out.mapShared(java.util.Arrays.copyOfRange(key, 1 + (key[0] & 0xff), key.length));
            }
        }
        return null;
    }

    /** Registers {@code memory} with every driver that needs it; null when none does. */
    public Object register(MemorySegment memory) {
        Object[] regs = null;
        for (int i = 0; i < contexts.size(); i++) {
            Object r = contexts.get(i).context().register(memory);
            if (r != null) {
                if (regs == null) {
                    regs = new Object[contexts.size()];
                }
                regs[i] = r;
            }
        }
        return regs;
    }

    /** Releases what {@link #register} answered (null: nothing was registered). */
    public void deregister(Object registration) {
        if (registration instanceof Object[] regs) {
            for (int i = 0; i < regs.length; i++) {
                if (regs[i] != null) {
                    contexts.get(i).context().deregister(regs[i]);
                }
            }
        }
    }
}
