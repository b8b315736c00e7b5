package dev.forge.memory;

/** Which relations of an entry to follow. */
public enum Direction {
    /** Relations that start at the entry. */
    OUTGOING,
    /** Relations that end at the entry. */
    INCOMING,
    /** Both. */
    BOTH
}
