package dev.ferry.conformance;

import dev.ferry.spi.DriverContext;
import dev.ferry.spi.InstanceRef;
import dev.ferry.spi.Status;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Checks that a sleeping {@link DriverContext#recvWaitAny} returns NOT_YET when a peer moves a
 * send of the context's on without a packet (pulls it, frees room), so that an engine dozing in
 * it sees the send complete at once. How to tell that the wait sleeps is the driver's own:
 * {@code asleep} answers it, after which the wait has taken in every earlier piece of news.
 *
 * <pre>{@code
 * WaitAnyNews.expect(ctx, ctx::asleep, () -> peer.pull(...), "the peer pulled an exposed packet");
 * }</pre>
 */
public final class WaitAnyNews {
    private WaitAnyNews() {
    }

    /** Runs {@code step} while {@code ctx}'s wait-any sleeps; the wait must then answer NOT_YET within {@link Transfers#TIMEOUT}. */
    public static void expect(DriverContext ctx, BooleanSupplier asleep, Runnable step, String what) throws Exception {
        InstanceRef ready = new InstanceRef();
        AtomicBoolean stepped = new AtomicBoolean();
        CompletableFuture<Status> wait = CompletableFuture.supplyAsync(() -> {
            Status s;
            while ((s = ctx.recvWaitAny(ready)) == Status.NOT_YET && !stepped.get()) {
                continue; // news from before the step (set-up, an earlier step): the wait that sleeps after it counts
            }
            return s;
        });
        long deadline = System.nanoTime() + Transfers.TIMEOUT.toNanos();
        while (!asleep.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                ctx.recvCancelAny();
                throw new AssertionError("the wait-any never slept");
            }
            Thread.onSpinWait();
        }
        stepped.set(true); // the wait sleeps past its look for news: only news from now on ends it
        step.run();
        Status s;
        try {
            s = wait.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            ctx.recvCancelAny();
            throw new AssertionError("a sleeping wait-any did not return within " + Transfers.TIMEOUT.toSeconds() + " s after " + what);
        }
        if (s != Status.NOT_YET) {
            throw new AssertionError("after " + what + " the wait-any answered " + s + ", not NOT_YET");
        }
    }
}
