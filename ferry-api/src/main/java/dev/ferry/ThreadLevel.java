package dev.ferry;

/** Which threads may call Ferry (MPI's thread support levels); Ferry provides {@link #MULTIPLE}. */
public enum ThreadLevel {
    SINGLE, FUNNELED, SERIALIZED,
    /** Any thread may call at any time; progress is serialized inside. */
    MULTIPLE
}
