/**
 * What the first touch of memory costs on this machine: a 2.24 GB array allocated twice (the
 * second time on memory the heap touched already), then 1 GiB of native memory. Run with
 * {@code java -Xmx8g -XX:+UseSerialGC docs/FirstTouch.java}, and with
 * {@code -XX:+UseTransparentHugePages} beside it (docs/performance.md).
 */
public class FirstTouch {
    public static void main(String[] args) {
        for (int i = 0; i < 2; i++) {
            long t = System.nanoTime();
            long[] big = new long[280_000_000];
            long t1 = System.nanoTime();
            big[big.length - 1] = 1;
            System.out.printf("new long[280M] (2.24 GB): %.2f s%n", (t1 - t) / 1e9);
            big = null;
            System.gc();
        }
        try (var arena = java.lang.foreign.Arena.ofConfined()) {
            long t = System.nanoTime();
            arena.allocate(1L << 30, 8);
            System.out.printf("Arena.allocate 1 GiB (zeroed): %.2f s%n", (System.nanoTime() - t) / 1e9);
        }
    }
}
