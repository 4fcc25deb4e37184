package dev.ferry.conformance;

import dev.ferry.launch.ChildJvm;
import dev.ferry.spi.Driver;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The kit's handle on a {@link PeerAgent}: in a thread of this JVM, or in a child JVM that can be
 * killed with SIGKILL. Every call is bounded by {@link Transfers#TIMEOUT}.
 */
public abstract class PeerLink implements AutoCloseable {

    /** Sends one command and returns the answer after {@code ok}; fails on {@code err} or timeout. */
    public final String call(String command) {
        String answer = exchange(command);
        if (answer.startsWith("ok")) {
            return answer.substring(2).strip();
        }
        throw new AssertionError("peer answered '" + answer + "' to '" + command + "'");
    }

    protected abstract String exchange(String command);

    /** Kills the peer the hard way: SIGKILL for a process; for a thread, its contexts close without disconnecting. */
    public abstract void kill();

    /** True when the peer is a separate process. */
    public abstract boolean isProcess();

    /** Ends the peer in order. */
    @Override
    public abstract void close();

    /** A peer in a thread of this JVM. */
    public static PeerLink inThread(Driver driver) {
        return new ThreadLink(driver, dev.ferry.spi.Settings.fromEnvironment());
    }

    /** A peer in a thread of this JVM whose contexts read {@code settings}. */
    public static PeerLink inThread(Driver driver, dev.ferry.spi.Settings settings) {
        return new ThreadLink(driver, settings);
    }

    /**
     * A peer in a child JVM started with this JVM's java and class path.
     *
     * @param driverClass the driver's class, instantiated there with its no-argument constructor
     */
    public static PeerLink inProcess(Class<? extends Driver> driverClass, List<String> jvmOptions) {
        return new ProcessLink(driverClass, jvmOptions, List.of(), java.util.Map.of());
    }

    /**
     * A peer in a child JVM started under {@code prefix} (e.g. {@code ip netns exec NS}) with
     * {@code env} added to its environment.
     */
    public static PeerLink inProcess(Class<? extends Driver> driverClass, List<String> jvmOptions,
                                     List<String> prefix, java.util.Map<String, String> env) {
        return new ProcessLink(driverClass, jvmOptions, prefix, env);
    }

    private static final class ThreadLink extends PeerLink {
        private final PeerAgent agent;
        private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "peer-agent");
            t.setDaemon(true);
            return t;
        });

        ThreadLink(Driver driver, dev.ferry.spi.Settings settings) {
            this.agent = new PeerAgent(driver, settings);
        }

        @Override
        protected String exchange(String command) {
            Future<String> f = executor.submit(() -> agent.handle(command));
            try {
                return f.get(Transfers.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                f.cancel(true);
                throw new AssertionError("peer did not answer '" + command + "' within " + Transfers.TIMEOUT.toSeconds() + " s");
            } catch (Exception e) {
                throw new AssertionError("peer failed on '" + command + "'", e);
            }
        }

        @Override
        public void kill() {
            call("closeall");
        }

        @Override
        public boolean isProcess() {
            return false;
        }

        @Override
        public void close() {
            exchange("exit");
            executor.shutdownNow();
        }
    }

    private static final class ProcessLink extends PeerLink {
        private final ChildJvm child;

        ProcessLink(Class<? extends Driver> driverClass, List<String> jvmOptions, List<String> prefix, java.util.Map<String, String> env) {
            ChildJvm.Builder b = ChildJvm.builder(PeerMain.class.getName()).jvmOptions(jvmOptions).prefix(prefix).args(driverClass.getName());
            env.forEach(b::env);
            child = b.start();
            String hello = readAnswer("start");
            if (!hello.startsWith("ready")) {
                throw new AssertionError("peer JVM said '" + hello + "' instead of ready");
            }
        }

        @Override
        protected synchronized String exchange(String command) {
            try {
                child.send(command);
            } catch (IllegalStateException e) {
                throw new AssertionError(e.getMessage(), e);
            }
            return readAnswer(command);
        }

        private String readAnswer(String command) {
            try {
                return child.readAnswer(Transfers.TIMEOUT);
            } catch (IllegalStateException e) {
                throw new AssertionError("peer JVM, command '" + command + "': " + e.getMessage(), e);
            }
        }

        @Override
        public void kill() {
            child.kill(); // SIGKILL
        }

        @Override
        public boolean isProcess() {
            return true;
        }

        @Override
        public void close() {
            if (child.isAlive()) {
                try {
                    exchange("exit");
                } catch (AssertionError ignored) {
                    // dying already; close() below kills it if need be
                }
            }
            child.close();
        }
    }
}
