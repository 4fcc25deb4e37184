package dev.ferry.core.protocol;

/**
 * Which protocol carries a message of each length to one peer: size ranges, each with its
 * protocol, built once per gate from its rails' capabilities and the settings (as UCX selects a
 * {@code ucp_proto} per range). {@code ferry info} prints this very table.
 *
 * <pre>{@code
 * ProtocolTable t = new ProtocolTable.Builder().upTo(8144, eager).upTo(67108864, pull).rest(put).build();
 * Protocol p = t.lookup(s.length());
 * }</pre>
 */
public final class ProtocolTable {
    /** The inclusive upper bound of each row's lengths; the last is Long.MAX_VALUE. */
    private final long[] upTo;
    private final Protocol[] rows;
    /** The first row, in fields of its own: most messages are small, and this is every send's look-up. */
    private final long firstUpTo;
    private final Protocol first;

    private ProtocolTable(long[] upTo, Protocol[] rows) {
        this.upTo = upTo;
        this.rows = rows;
        this.firstUpTo = upTo[0];
        this.first = rows[0];
    }

    /** The protocol for a message of {@code length} bytes. */
    public Protocol lookup(long length) {
        if (length <= firstUpTo) {
            return first;
        }
        long[] u = upTo;
        int i = 1;
        while (length > u[i]) {
            i++;
        }
        return rows[i];
    }

    int size() {
        return rows.length;
    }

    Protocol protocol(int row) {
        return rows[row];
    }

    /** The smallest length of row {@code row}. */
    long from(int row) {
        return row == 0 ? 0 : upTo[row - 1] + 1;
    }

    /** The largest length of row {@code row} (Long.MAX_VALUE: no bound). */
    long to(int row) {
        return upTo[row];
    }

    /** One line per row: the range, the protocol's name and how it carries a message. */
    public String describe(String indent) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < rows.length; i++) {
            String range = upTo[i] == Long.MAX_VALUE ? (i == 0 ? "any length" : ">= " + from(i) + " B") : from(i) + " .. " + upTo[i] + " B";
            b.append(indent).append(String.format("%-22s %-15s %s%n", range + ":", rows[i].name(), rows[i].describe()));
        }
        return b.toString();
    }

    /** Rows in order of length; a row whose range is empty (its bound not above the last) is left out. */
    public static final class Builder {
        private final java.util.List<Long> bounds = new java.util.ArrayList<>();
        private final java.util.List<Protocol> protocols = new java.util.ArrayList<>();

        /** Messages longer than the rows before, up to {@code maxLength} bytes, go by {@code p}. */
        public Builder upTo(long maxLength, Protocol p) {
            long last = bounds.isEmpty() ? -1 : bounds.get(bounds.size() - 1);
            if (maxLength > last) {
                bounds.add(maxLength);
                protocols.add(p);
            }
            return this;
        }

        /** Every longer message goes by {@code p}. */
        public ProtocolTable rest(Protocol p) {
            upTo(Long.MAX_VALUE, p);
            return new ProtocolTable(bounds.stream().mapToLong(Long::longValue).toArray(), protocols.toArray(Protocol[]::new));
        }
    }
}
