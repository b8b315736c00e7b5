package dev.forge.memory;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.Objects;

/**
 * A typed, directed relation between two entries.
 *
 * @param from      where it starts
 * @param type      its type, such as {@code DEPENDS_ON}; see {@link MemoryGraph#relate}
 * @param to        where it ends
 * @param createdAt when it was first made, to the millisecond
 */
public record Relation(EntryRef from, String type, EntryRef to, Instant createdAt) implements Comparable<Relation> {

    private static final Comparator<Relation> ORDER = Comparator.comparing(Relation::type)
            .thenComparing(Relation::from).thenComparing(Relation::to);

    /** Rejects nulls and truncates the instant to milliseconds. */
    public Relation {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(to, "to");
        createdAt = Objects.requireNonNull(createdAt, "createdAt").truncatedTo(ChronoUnit.MILLIS);
    }

    /** Whether this relation joins the same two entries with the same type (ignoring {@code createdAt}). */
    public boolean sameLink(Relation other) {
        return from.equals(other.from) && type.equals(other.type) && to.equals(other.to);
    }

    /** The other end, seen from {@code end}. */
    public EntryRef otherEnd(EntryRef end) {
        return from.equals(end) ? to : from;
    }

    /** Orders by type, then from, then to. */
    @Override
    public int compareTo(Relation other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return "(" + from + ")-[" + type + "]->(" + to + ")";
    }
}
