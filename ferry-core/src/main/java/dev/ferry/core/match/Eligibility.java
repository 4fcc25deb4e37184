package dev.ferry.core.match;

/**
 * What a pattern's source and bits do not say about whether an entry may match: a Portals entry
 * with NO_TRUNCATE too short for the message, or without the operation's permission, is passed
 * over and the search goes on to later entries. MPI receives need none ({@code null}).
 *
 * <pre>{@code
 * MatchEntry<ListEntry> e = priority.find(0, rank, bits, entry -> entry.fits(length));
 * }</pre>
 */
@FunctionalInterface
public interface Eligibility<T> {
    /** Whether {@code item}, whose pattern accepts the message, may take it. */
    boolean eligible(T item);
}
