package dev.forge.memory.support.tx;

import dev.forge.memory.ConflictException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.Keys;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * What a transaction hands its backend at commit: the buffered changes in order, and the revision of every key it
 * touched as seen at first touch. The backend checks the revisions and applies the changes in one atomic step.
 *
 * @param <R> the backend's revision type
 */
public final class Commit<R> {

    private final List<Change> changes;
    private final Map<EntryRef, R> observed;

    Commit(List<Change> changes, Map<EntryRef, R> observed) {
        this.changes = List.copyOf(changes);
        // Revisions may be null ("nothing stored"), which Map.copyOf refuses.
        this.observed = Collections.unmodifiableMap(new LinkedHashMap<>(observed));
    }

    /** The buffered changes, in the order they were made; empty for a transaction that only read. */
    public List<Change> changes() {
        return changes;
    }

    /** The revision of each key the transaction touched, as first seen, in the order of first touch. */
    public Map<EntryRef, R> observed() {
        return observed;
    }

    /**
     * Checks that every key touched still has the revision first seen, comparing with {@link Objects#equals}.
     * Call it inside the backend's atomic step, before applying anything.
     *
     * @param current the key's revision now
     * @throws ConflictException naming the first key that changed
     */
    public void verify(Function<EntryRef, R> current) {
        verify(current, Objects::equals);
    }

    /**
     * As {@link #verify(Function)}, comparing revisions with {@code same} (seen first, current second).
     *
     * @throws ConflictException naming the first key that changed
     */
    public void verify(Function<EntryRef, R> current, BiPredicate<R, R> same) {
        for (Map.Entry<EntryRef, R> seen : observed.entrySet()) {
            if (!same.test(seen.getValue(), current.apply(seen.getKey()))) {
                throw conflict(seen.getKey());
            }
        }
    }

    /** The error for a commit refused because {@code ref} changed since the transaction read it. */
    public static ConflictException conflict(EntryRef ref) {
        return new ConflictException("Transaction not committed: key '" + Keys.abbreviate(ref.key()) + "' ("
                + ref.scope().id() + ") was changed by another writer since this transaction read it."
                + " Nothing was applied; retry the transaction.");
    }
}
