package dev.ferry.launch.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Copies the launcher's standard input to the ranks that read it (rank 0 by default, as mpirun
 * and mpiexec do), on a daemon thread, and closes theirs at its end so that they see it end too.
 * A rank that has gone stops receiving; the others still do.
 */
public final class StdinForwarder {
    private StdinForwarder() {
    }

    /** Starts copying {@code in} to {@code stdin(rank)} of the ranks {@code spec} names; nothing when none. */
    public static void start(InputStream in, JobSpec spec, IntFunction<OutputStream> stdin) {
        if (spec.stdin() == JobSpec.STDIN_NONE) {
            return;
        }
        List<OutputStream> to = new ArrayList<>();
        for (int r = 0; r < spec.ranks(); r++) {
            if (spec.takesInput(r)) {
                to.add(stdin.apply(r));
            }
        }
        Thread.ofPlatform().daemon().name("ferry-run-stdin").start(() -> copy(in, to));
    }

    static void copy(InputStream in, List<OutputStream> to) {
        List<OutputStream> open = new ArrayList<>(to);
        byte[] buf = new byte[8192];
        try {
            int n;
            while (!open.isEmpty() && (n = in.read(buf)) >= 0) {
                for (var it = open.iterator(); it.hasNext(); ) {
                    OutputStream o = it.next();
                    try {
                        o.write(buf, 0, n);
                        o.flush();
                    } catch (IOException gone) {
                        it.remove(); // that rank has ended
                    }
                }
            }
        } catch (IOException e) {
            System.getLogger(StdinForwarder.class.getName()).log(System.Logger.Level.DEBUG,
                    "ferry run: standard input ended: {0}", e.getMessage());
        }
        for (OutputStream o : open) {
            try {
                o.close();
            } catch (IOException ignored) {
                // gone
            }
        }
    }
}
