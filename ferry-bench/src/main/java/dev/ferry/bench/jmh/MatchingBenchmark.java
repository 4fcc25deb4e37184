package dev.ferry.bench.jmh;

import dev.ferry.core.match.MatchEntry;
import dev.ferry.core.match.PostedReceives;
import dev.ferry.core.match.UnexpectedMessages;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The matching queues alone: post a receive and match its message, or queue an unexpected
 * message and take it, with {@code backlog} other exact receives (or messages) waiting on other
 * (source, tag) keys. With hash bins both cost the same at 0 and at 10 000; a list would walk
 * them all. {@code -prof gc}: 0 B/op.
 *
 * <pre>
 *   bin/ferry bench jmh Matching -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class MatchingBenchmark {
    @Param({"0", "10000"})
    public int backlog;

    private final PostedReceives<Object> posted = new PostedReceives<>();
    private final UnexpectedMessages<Object> unexpected = new UnexpectedMessages<>();
    private final MatchEntry<Object> receive = new MatchEntry<>("receive");
    private final MatchEntry<Object> message = new MatchEntry<>("message");

    @Setup
    public void setUp() {
        for (int i = 0; i < backlog; i++) {
            posted.add(new MatchEntry<Object>(i).set(0, 2 + i % 64, 100 + i));
            unexpected.add(new MatchEntry<Object>(i).set(0, 2 + i % 64, 100 + i));
        }
    }

    /** A receive posted for (rank 1, tag 7), then the message that matches it. */
    @Benchmark
    public Object postThenMatch() {
        posted.add(receive.set(0, 1, 7));
        return posted.match(0, 1, 7);
    }

    /** A message that came before its receive, then the receive that takes it. */
    @Benchmark
    public Object unexpectedThenTake() {
        unexpected.add(message.set(0, 1, 7));
        return unexpected.take(0, 1, 7);
    }
}
