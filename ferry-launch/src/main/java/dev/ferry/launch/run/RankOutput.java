package dev.ferry.launch.run;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The ranks' output as the launcher prints it: bytes as they come (a prompt without a line end
 * shows at once), each line prefixed with {@code [RANK] } when tagging, and the first report of an
 * uncaught exception on a rank's error output remembered to name the cause when it fails.
 */
public final class RankOutput {
    /** How the JVM's default handler starts its report of an uncaught exception. */
    private static final String UNCAUGHT = "Exception in thread \"";
    private static final int LINE_KEPT = 512;

    private final PrintStream out;
    private final PrintStream err;
    private final boolean tag;
    private final AtomicReferenceArray<String> uncaught;
    /** Per rank and stream: at a line's start; and the error line's beginning so far. */
    private final boolean[][] lineStart;
    private final StringBuilder[] errLine;

    public RankOutput(int ranks, PrintStream out, PrintStream err, boolean tag) {
        this.out = out;
        this.err = err;
        this.tag = tag;
        this.uncaught = new AtomicReferenceArray<>(ranks);
        this.lineStart = new boolean[ranks][2];
        this.errLine = new StringBuilder[ranks];
        for (int r = 0; r < ranks; r++) {
            lineStart[r][0] = lineStart[r][1] = true;
            errLine[r] = new StringBuilder();
        }
    }

    /** Writes what rank {@code rank} printed. */
    public void write(int rank, boolean isErr, byte[] bytes, int len) {
        PrintStream to = isErr ? err : out;
        if (isErr) {
            noteErrors(rank, bytes, len);
        }
        synchronized (to) {
            if (!tag) {
                to.write(bytes, 0, len);
            } else {
                byte[] prefix = ("[" + rank + "] ").getBytes(StandardCharsets.US_ASCII);
                boolean[] at = lineStart[rank];
                int s = isErr ? 1 : 0;
                int from = 0;
                for (int i = 0; i < len; i++) {
                    if (at[s]) {
                        to.write(prefix, 0, prefix.length);
                        at[s] = false;
                    }
                    if (bytes[i] == '\n') {
                        to.write(bytes, from, i + 1 - from);
                        from = i + 1;
                        at[s] = true;
                    }
                }
                to.write(bytes, from, len - from);
            }
            to.flush();
        }
    }

    /** The rank's output stream ended: a last line without its end gets one, so that the next does not join it. */
    public void ended(int rank, boolean isErr) {
        PrintStream to = isErr ? err : out;
        synchronized (to) {
            if (tag && !lineStart[rank][isErr ? 1 : 0]) {
                to.println();
                lineStart[rank][isErr ? 1 : 0] = true;
            }
        }
    }

    private void noteErrors(int rank, byte[] bytes, int len) {
        StringBuilder line = errLine[rank];
        synchronized (line) {
            for (int i = 0; i < len; i++) {
                if (bytes[i] == '\n') {
                    if (line.toString().startsWith(UNCAUGHT)) {
                        uncaught.compareAndSet(rank, null, line.substring("Exception in ".length()));
                    }
                    line.setLength(0);
                } else if (line.length() < LINE_KEPT) {
                    line.append((char) (bytes[i] & 0xff));
                }
            }
        }
    }

    /** What the rank's JVM reported of an uncaught exception ("thread ... Exception: ..."), or null. */
    public String uncaught(int rank) {
        return uncaught.get(rank);
    }
}
