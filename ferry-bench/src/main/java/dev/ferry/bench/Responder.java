package dev.ferry.bench;

import java.time.Duration;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;

/**
 * The passive end of a driver benchmark, in its own thread: in {@code echo} mode it sends every
 * packet back; in {@code sink W} mode it receives W packets, then sends a 0-byte acknowledgement.
 * The active end changes the mode only when no packet is in flight; the responder acknowledges
 * the change, so no packet is ever handled in the wrong mode.
 */
final class Responder implements Runnable {
    private final Endpoint end;
    private final SynchronousQueue<String> modes = new SynchronousQueue<>();
    private final SynchronousQueue<String> acks = new SynchronousQueue<>();
    private volatile String pending;
    private volatile boolean stop;
    private volatile Throwable failure;

    Responder(Endpoint end) {
        this.end = end;
    }

    /** Switches mode ("echo", "sink 16", "stop"); returns once the responder runs in it. */
    void mode(String mode, Duration timeout) {
        pending = mode;
        try {
            String ack = acks.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (ack == null) {
                Throwable f = failure;
                throw new IllegalStateException("responder did not take mode '" + mode + "' within " + timeout.toMillis() + " ms"
                        + (f != null ? ": it failed with " + f : ""), f);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void run() {
        String mode = "idle";
        int window = 0;
        try {
            while (!stop) {
                String next = pending;
                if (next != null) {
                    pending = null;
                    if (next.equals("stop")) {
                        stop = true;
                        acks.put("ok");
                        return;
                    }
                    String[] w = next.split(" ");
                    mode = w[0];
                    window = w.length > 1 ? Integer.parseInt(w[1]) : 0;
                    acks.put("ok");
                }
                if (mode.equals("echo")) {
                    long n = end.recvOrStop(() -> pending != null);
                    if (n >= 0) {
                        end.sendBytes(n);
                    }
                } else if (mode.equals("sink")) {
                    long n = 0;
                    for (int i = 0; i < window && n >= 0; i++) {
                        n = end.recvOrStop(() -> pending != null);
                    }
                    if (n >= 0) {
                        end.sendBytes(0);
                    }
                } else {
                    Thread.onSpinWait();
                }
            }
        } catch (Throwable t) {
            failure = t;
        }
    }
}
