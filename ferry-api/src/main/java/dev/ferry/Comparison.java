package dev.ferry;

/**
 * How two groups or communicators compare (MPI_Group_compare, MPI_Comm_compare).
 *
 * <pre>{@code
 * Comm copy = world.dup();
 * assert world.compare(copy) == Comparison.CONGRUENT;   // same members, same order, another context
 * }</pre>
 */
public enum Comparison {
    /** The same object (communicators) or the same members in the same order (groups). */
    IDENT,
    /** Communicators with the same members in the same order, but different contexts. */
    CONGRUENT,
    /** The same members in another order. */
    SIMILAR,
    /** Different members. */
    UNEQUAL
}
