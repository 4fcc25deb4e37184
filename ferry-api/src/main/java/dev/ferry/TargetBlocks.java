package dev.ferry;

import java.util.Arrays;

/**
 * The contiguous byte ranges at a target that {@code count} elements of a datatype cover from a
 * base offset, each at most {@code max} bytes (an atomic's size limit), adjacent ones merged:
 * one library operation each. Reused from one operation to the next (its owner's lock held).
 *
 * <pre>{@code
 * TargetBlocks b = blocks.of(base, count, type, Long.MAX_VALUE);
 * for (int i = 0; i < b.n; i++) put(..., b.len[i], ..., b.at[i], ...);
 * }</pre>
 */
final class TargetBlocks {
    long[] at = new long[4];
    long[] len = new long[4];
    int n;

    TargetBlocks of(long base, long count, Datatype type, long max) {
        n = 0;
        if (type.contiguous) {
            add(base, count * type.size, max);
            return this;
        }
        for (long i = 0; i < count; i++) {
            long e = base + i * type.extent;
            for (int k = 0; k < type.offsets.length; k++) {
                add(e + type.offsets[k], type.lengths[k], max);
            }
        }
        return this;
    }

    private void add(long a, long l, long max) {
        if (n > 0 && at[n - 1] + len[n - 1] == a && len[n - 1] + l <= max) {
            len[n - 1] += l;
            return;
        }
        while (l > max) {
            add(a, max, max);
            a += max;
            l -= max;
        }
        if (l == 0) {
            return;
        }
        if (n == at.length) {
            at = Arrays.copyOf(at, 2 * n);
            len = Arrays.copyOf(len, 2 * n);
        }
        at[n] = a;
        len[n] = l;
        n++;
    }
}
