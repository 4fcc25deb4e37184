package dev.ferry.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@code ferry bench report} measures: each step one {@code ferry bench} command line (JSON
 * lines out), the quick suite sized to finish in a few minutes on two cores, the full one with the
 * whole size range and more iterations.
 *
 * <pre>{@code
 * for (ReportSuite.Step s : ReportSuite.quick().steps()) BenchCommand.run(s.args(), out, err);
 * }</pre>
 *
 * @param sizes      the point-to-point sizes, 1 B to 4 MiB
 * @param iterations round trips (latency) or messages (bandwidth) per size
 * @param steps      the command lines, in order
 */
record ReportSuite(String sizes, int iterations, List<Step> steps) {
    /** One benchmark command: a name for the progress line, and its arguments. */
    record Step(String name, List<String> args) {
    }

    static final String QUICK_SIZES = "1,8,64,512,4k,32k,256k,1m,4m";
    static final String FULL_SIZES = "1,2,4,8,16,32,64,128,256,512,1k,2k,4k,8k,16k,32k,64k,128k,256k,512k,1m,2m,4m";

    static ReportSuite quick() {
        return of(QUICK_SIZES, 2_000, "8,1k,64k,1m", "8,4k,1m", false);
    }

    static ReportSuite full() {
        return of(FULL_SIZES, 20_000, "8,64,1k,16k,64k,256k,1m", "8,64,1k,16k,256k,1m", true);
    }

    /**
     * A suite over {@code sizes} (point-to-point), {@code collSizes} and {@code rmaSizes}; with
     * {@code all}, the barrier and reduce too. The references (ref-shm, ref-readv, ref-nio) are
     * measured once, with the shm steps; the latency step measures the engine beside the API.
     */
    static ReportSuite of(String sizes, int iterations, String collSizes, String rmaSizes, boolean all) {
        String it = String.valueOf(iterations);
        List<Step> s = new ArrayList<>();
        s.add(new Step("latency shm", List.of("latency", "--driver", "shm", "--sizes", sizes, "--iterations", it)));
        s.add(new Step("bw shm", List.of("bw", "--driver", "shm", "--sizes", sizes, "--iterations", it)));
        s.add(new Step("latency tcp", List.of("latency", "--driver", "tcp", "--sizes", sizes, "--iterations", it, "--no-references")));
        s.add(new Step("bw tcp", List.of("bw", "--driver", "tcp", "--sizes", sizes, "--iterations", it, "--no-references")));
        s.add(new Step("bibw shm", List.of("bibw", "--driver", "shm", "--sizes", all ? sizes : "8,4k,64k,1m", "--iterations", it, "--no-references")));
        s.add(new Step("mbw-mr shm", List.of("mbw-mr", "--driver", "shm", "--sizes", all ? "1,8,64,512,4k,64k" : "8,4k", "--iterations", it, "--no-references")));
        s.add(new Step("driver-latency shm,tcp", List.of("driver-latency", "--driver", "shm,tcp", "--sizes", sizes, "--iterations", it, "--no-references")));
        List<String> colls = all ? List.of("barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall") : List.of("bcast", "allreduce", "allgather", "alltoall");
        for (String c : colls) {
            s.add(new Step(c, List.of(c, "--driver", "shm", "--ranks", "2,4", "--sizes", c.equals("barrier") ? "0" : collSizes,
                    "--iterations", String.valueOf(Math.max(200, iterations / 10)))));
        }
        for (String w : List.of("put-latency", "get-latency", "fetch-op-latency")) {
            s.add(new Step(w, List.of(w, "--driver", "shm", "--sizes", w.equals("fetch-op-latency") ? "8" : rmaSizes,
                    "--iterations", String.valueOf(Math.max(500, iterations / 4)), "--no-references")));
        }
        return new ReportSuite(sizes, iterations, List.copyOf(s));
    }

    /** Only the steps whose names start with one of {@code prefixes} (empty: all). */
    ReportSuite only(List<String> prefixes) {
        if (prefixes.isEmpty()) {
            return this;
        }
        return new ReportSuite(sizes, iterations, steps.stream().filter(st -> prefixes.stream().anyMatch(st.name()::startsWith)).toList());
    }

    /** The same suite with {@code n} warm-up iterations per size in every step (the report's --warmup); negative: each step's own. */
    ReportSuite warmup(long n) {
        if (n < 0) {
            return this;
        }
        List<Step> s = new ArrayList<>();
        for (Step st : steps) {
            List<String> a = new ArrayList<>(st.args());
            a.addAll(List.of("--warmup", String.valueOf(n)));
            s.add(new Step(st.name(), List.copyOf(a)));
        }
        return new ReportSuite(sizes, iterations, List.copyOf(s));
    }

    /** The same suite over other point-to-point sizes and iterations (the report's --sizes and --iterations). */
    ReportSuite with(String newSizes, int newIterations) {
        List<Step> s = new ArrayList<>();
        for (Step st : steps) {
            List<String> a = new ArrayList<>(st.args());
            int i = a.indexOf("--sizes");
            if (newSizes != null && i >= 0 && a.get(i + 1).equals(sizes)) {
                a.set(i + 1, newSizes);
            }
            int k = a.indexOf("--iterations");
            if (newIterations > 0 && k >= 0) {
                a.set(k + 1, String.valueOf(newIterations));
            }
            s.add(new Step(st.name(), List.copyOf(a)));
        }
        return new ReportSuite(newSizes != null ? newSizes : sizes, newIterations > 0 ? newIterations : iterations, List.copyOf(s));
    }
}
