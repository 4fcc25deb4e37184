package dev.ferry.bench;

import dev.ferry.launch.ChildJvm;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The TCP reference: raw NIO {@link SocketChannel}s on loopback between this JVM and a child,
 * non-blocking and busy-polled, TCP_NODELAY: what the tcp driver is judged against.
 *
 * <p>Wire protocol, all big-endian: a 16-byte command {@code int op, int size, long count}, then
 * op 1 (echo): count round trips of size bytes each way; op 2 (sink): count messages of size
 * bytes, answered by one byte; op 0: end. Size 0 is not measured (TCP has no empty message).
 */
final class RefNio {
    static final String NAME = "ref-nio";
    static final int OP_END = 0, OP_ECHO = 1, OP_SINK = 2;
    static final int COMMAND_BYTES = 16;

    private RefNio() {
    }

    static void run(BenchOptions o, List<Long> sizes, Progress progress, Consumer<Result> out) throws IOException {
        try (ChildJvm child = ChildJvm.builder(BenchPeer.class.getName()).args("ref-nio").prefix(o.peerPrefix()).start()) {
            // "PORT ADDRESS": loopback beside us, the host's own address under a peer prefix (another host)
            String[] answer = child.readAnswer(DriverPeer.TIMEOUT).split(" ");
            int port = Integer.parseInt(answer[0]);
            String host = o.peerPrefix().isEmpty() ? "127.0.0.1" : answer[1];
            try (SocketChannel ch = SocketChannel.open(new InetSocketAddress(host, port))) {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.configureBlocking(false);
                long max = sizes.stream().mapToLong(Long::longValue).max().orElse(1);
                ByteBuffer buf = ByteBuffer.allocateDirect((int) Math.min(Integer.MAX_VALUE - 8, Math.max(1, max)));
                ByteBuffer cmd = ByteBuffer.allocateDirect(COMMAND_BYTES);
                for (long size : sizes) {
                    if (size == 0) {
                        continue;
                    }
                    if (o.benchmark().equals(BenchOptions.LATENCY)) {
                        out.accept(latency(ch, cmd, buf, (int) size, o, progress));
                    } else {
                        out.accept(bandwidth(ch, cmd, buf, (int) size, o, progress));
                    }
                }
                command(ch, cmd, OP_END, 0, 0);
            }
            child.waitFor(DriverPeer.TIMEOUT);
        }
    }

    private static Result latency(SocketChannel ch, ByteBuffer cmd, ByteBuffer buf, int size, BenchOptions o, Progress progress) throws IOException {
        long iterations = o.iterationsFor(size);
        long batch = 1;
        int samples = (int) iterations;
        // warm-up in chunks, since its length is known only when it ends
        JitQuiet quiet = new JitQuiet(o.warmupNanos());
        for (long done = 0; done < o.warmupFor(size) || !quiet.settled(); done += 256) {
            command(ch, cmd, OP_ECHO, size, 256);
            for (int i = 0; i < 256; i++) {
                roundTrip(ch, buf, size);
            }
        }
        command(ch, cmd, OP_ECHO, size, iterations);
        double[] oneWayUs = new double[samples];
        for (int s = 0; s < samples; s++) {
            long start = System.nanoTime();
            roundTrip(ch, buf, size);
            oneWayUs[s] = (System.nanoTime() - start) / (double) batch / 2 / 1000;
            progress.update(NAME + " latency " + size + " B", s, samples);
        }
        return new Result(BenchOptions.LATENCY, NAME, size, samples, Stats.median(oneWayUs), Stats.quantile(oneWayUs, 0.99), null, Map.of());
    }

    private static void roundTrip(SocketChannel ch, ByteBuffer buf, int size) throws IOException {
        buf.clear().limit(size);
        writeFully(ch, buf);
        buf.clear().limit(size);
        readFully(ch, buf);
    }

    private static Result bandwidth(SocketChannel ch, ByteBuffer cmd, ByteBuffer buf, int size, BenchOptions o, Progress progress) throws IOException {
        int w = o.window();
        int samples = (int) Math.max(1, o.iterationsFor(size) / w);
        ByteBuffer ack = ByteBuffer.allocateDirect(1);
        JitQuiet quiet = new JitQuiet(o.warmupNanos());
        for (long done = 0; done < o.warmupFor(size) || !quiet.settled(); done += w) {
            window(ch, cmd, buf, ack, size, w);
        }
        double[] mbps = new double[samples];
        double[] perMsgUs = new double[samples];
        for (int s = 0; s < samples; s++) {
            long t = window(ch, cmd, buf, ack, size, w);
            mbps[s] = (double) w * size / t * 1000;
            perMsgUs[s] = t / (double) w / 1000;
            progress.update(NAME + " bandwidth " + size + " B", s, samples);
        }
        return new Result(BenchOptions.BANDWIDTH, NAME, size, (long) samples * w, Stats.median(perMsgUs),
                Stats.quantile(perMsgUs, 0.99), Stats.median(mbps), Map.of());
    }

    /** One bandwidth sample: w messages, then the one-byte acknowledgement; returns nanoseconds. */
    private static long window(SocketChannel ch, ByteBuffer cmd, ByteBuffer buf, ByteBuffer ack, int size, int w) throws IOException {
        long start = System.nanoTime();
        command(ch, cmd, OP_SINK, size, w);
        for (int i = 0; i < w; i++) {
            buf.clear().limit(size);
            writeFully(ch, buf);
        }
        ack.clear();
        readFully(ch, ack);
        return System.nanoTime() - start;
    }

    private static void command(SocketChannel ch, ByteBuffer cmd, int op, int size, long count) throws IOException {
        cmd.clear();
        cmd.putInt(op).putInt(size).putLong(count).flip();
        writeFully(ch, cmd);
    }

    static void writeFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (ch.write(b) == 0) {
                Thread.onSpinWait();
            }
        }
    }

    static void readFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            int n = ch.read(b);
            if (n < 0) {
                throw new IOException("ref-nio peer closed the connection");
            }
            if (n == 0) {
                Thread.onSpinWait();
            }
        }
    }

    /** The child's side: accept one connection and serve commands until OP_END. */
    static void serve() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(0));
            ChildJvm.answer(((InetSocketAddress) server.getLocalAddress()).getPort() + " " + java.net.InetAddress.getLocalHost().getHostAddress());
            try (SocketChannel ch = server.accept()) {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.configureBlocking(false);
                ByteBuffer cmd = ByteBuffer.allocateDirect(COMMAND_BYTES);
                ByteBuffer buf = ByteBuffer.allocateDirect(1);
                ByteBuffer ack = ByteBuffer.allocateDirect(1);
                while (true) {
                    cmd.clear();
                    readFully(ch, cmd);
                    cmd.flip();
                    int op = cmd.getInt();
                    int size = cmd.getInt();
                    long count = cmd.getLong();
                    if (op == OP_END) {
                        return;
                    }
                    if (buf.capacity() < size) {
                        buf = ByteBuffer.allocateDirect(size);
                    }
                    for (long i = 0; i < count; i++) {
                        buf.clear().limit(size);
                        readFully(ch, buf);
                        if (op == OP_ECHO) {
                            buf.flip();
                            writeFully(ch, buf);
                        }
                    }
                    if (op == OP_SINK) {
                        ack.clear();
                        writeFully(ch, ack);
                    }
                }
            }
        }
    }
}
