package dev.ferry;

/**
 * Which threads may call Ferry (MPI's thread support levels); Ferry provides {@link #MULTIPLE}.
 *
 * <pre>{@code
 * if (ferry.threadLevel() == ThreadLevel.MULTIPLE) pool.submit(() -> world.send(part, 0, n, Datatype.DOUBLE, 1, 0));
 * }</pre>
 */
public enum ThreadLevel {
    SINGLE, FUNNELED, SERIALIZED,
    /** Any thread may call at any time; progress is serialized inside. */
    MULTIPLE
}
