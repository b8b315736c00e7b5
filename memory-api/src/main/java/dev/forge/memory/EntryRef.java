package dev.forge.memory;

import java.util.Comparator;
import java.util.Objects;

/**
 * The address of an entry: its key and scope.
 *
 * @param key   the entry's key
 * @param scope the entry's scope
 */
public record EntryRef(String key, Scope scope) implements Comparable<EntryRef> {

    private static final Comparator<EntryRef> ORDER =
            Comparator.comparing(EntryRef::key, dev.forge.memory.Keys::compareKeys).thenComparing(EntryRef::scope);

    /** Rejects nulls. */
    public EntryRef {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(scope, "scope");
    }

    /** Shorthand for {@code new EntryRef(key, scope)}. */
    public static EntryRef of(String key, Scope scope) {
        return new EntryRef(key, scope);
    }

    /** Orders by key (code point order), then scope (SESSION, PROJECT, GLOBAL). */
    @Override
    public int compareTo(EntryRef other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return scope.id() + ":" + key;
    }
}
