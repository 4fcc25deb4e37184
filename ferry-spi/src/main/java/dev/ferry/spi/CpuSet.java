package dev.ferry.spi;

import java.util.BitSet;

/**
 * An immutable set of CPU numbers, written in the Linux cpulist format ({@code "0-3,8"}).
 *
 * <pre>{@code
 * CpuSet s = CpuSet.parse("0-1,4");
 * s.contains(4);      // true
 * s.toString();       // "0-1,4"
 * }</pre>
 */
public final class CpuSet {
    private final BitSet cpus;

    private CpuSet(BitSet cpus) {
        this.cpus = cpus;
    }

    /** Every CPU available to this JVM, numbered 0 to n-1. */
    public static CpuSet all() {
        BitSet b = new BitSet();
        b.set(0, Runtime.getRuntime().availableProcessors());
        return new CpuSet(b);
    }

    /** Parses a cpulist such as {@code "0-3,8"}; the empty string is the empty set. */
    public static CpuSet parse(String list) {
        BitSet b = new BitSet();
        String s = list.strip();
        if (!s.isEmpty()) {
            for (String part : s.split(",")) {
                String p = part.strip();
                try {
                    int dash = p.indexOf('-');
                    if (dash < 0) {
                        b.set(checkCpu(Integer.parseInt(p), list));
                    } else {
                        int lo = checkCpu(Integer.parseInt(p.substring(0, dash).strip()), list);
                        int hi = checkCpu(Integer.parseInt(p.substring(dash + 1).strip()), list);
                        if (hi < lo) {
                            throw new IllegalArgumentException("descending CPU range '" + p + "' in cpulist '" + list + "'");
                        }
                        b.set(lo, hi + 1);
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("not a cpulist: '" + list + "' (bad element '" + p + "')", e);
                }
            }
        }
        return new CpuSet(b);
    }

    private static int checkCpu(int cpu, String list) {
        if (cpu < 0 || cpu > 65535) {
            throw new IllegalArgumentException("CPU number " + cpu + " out of range in cpulist '" + list + "'");
        }
        return cpu;
    }

    public boolean contains(int cpu) {
        return cpu >= 0 && cpus.get(cpu);
    }

    public int size() {
        return cpus.cardinality();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CpuSet c && c.cpus.equals(cpus);
    }

    @Override
    public int hashCode() {
        return cpus.hashCode();
    }

    /** The cpulist form, ranges collapsed. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        int i = cpus.nextSetBit(0);
        while (i >= 0) {
            int end = cpus.nextClearBit(i) - 1;
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(i);
            if (end > i) {
                sb.append('-').append(end);
            }
            i = cpus.nextSetBit(end + 1);
        }
        return sb.toString();
    }
}
