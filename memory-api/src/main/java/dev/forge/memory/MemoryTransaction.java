package dev.forge.memory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One open transaction. Not for use by several threads at once. After commit or rollback every method
 * but {@code close} and {@code isActive} throws {@link InvalidRequestException}; once its provider is closed it is
 * no longer active and its methods throw {@link BackendUnavailableException}.
 */
public interface MemoryTransaction extends AutoCloseable {

    /** Like {@link MemoryProvider#get}, seeing this transaction's own writes. */
    Optional<MemoryEntry> get(String key, Scope scope);

    /** Like {@link MemoryProvider#set}, visible to others only after commit. */
    MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata);

    /** Stores a value without tags or metadata. */
    default MemoryEntry set(String key, String value, Scope scope) {
        return set(key, value, scope, List.of(), Map.of());
    }

    /**
     * Buffers every write, in order, as {@link #set} one after the other would: a key given twice is overwritten by
     * its second write, and each returned entry is what {@code set} would have returned. Every write is checked before
     * any is buffered, so an invalid one ({@link InvalidKeyException}, {@link ValueTooLargeException},
     * {@link InvalidEntryException}) buffers none and the transaction stays active. A transaction that must read each
     * key for its version reads all of them at once, which is why callers writing many keys should prefer it.
     *
     * <p>By default: checks each key, then calls {@code set} for each; a transaction whose {@code set} may refuse a
     * write for other reasons (its provider's {@link Limits}) overrides this to check them all first.
     *
     * @return the entries as they will be stored, in the order of {@code writes}
     */
    default List<MemoryEntry> setAll(List<Write> writes) {
        List<Write> checked = List.copyOf(writes);
        checked.forEach(write -> Keys.validate(write.key()));
        List<MemoryEntry> entries = new ArrayList<>(checked.size());
        for (Write write : checked) {
            entries.add(set(write.key(), write.value(), write.scope(), write.tags(), write.metadata()));
        }
        return List.copyOf(entries);
    }

    /**
     * One write of {@link #setAll}: the arguments of {@link #set}. Checked by {@code setAll}, not here.
     *
     * @param key      the key
     * @param value    the value
     * @param scope    the scope
     * @param tags     the tags, as {@code set} takes them
     * @param metadata the metadata, as {@code set} takes it
     */
    record Write(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {

        /** Rejects nulls; copies tags and metadata (null elements and values kept, for {@code set} to judge). */
        public Write {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(scope, "scope");
            tags = Collections.unmodifiableList(new ArrayList<>(Objects.requireNonNull(tags, "tags")));
            metadata = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(metadata, "metadata")));
        }

        /** A write without tags or metadata. */
        public static Write of(String key, String value, Scope scope) {
            return new Write(key, value, scope, List.of(), Map.of());
        }
    }

    /** Like {@link MemoryProvider#delete}, visible to others only after commit. */
    boolean delete(String key, Scope scope);

    /**
     * Makes every change of this transaction visible at once.
     *
     * @throws ConflictException if the provider detected a conflicting change; nothing was applied
     */
    void commit();

    /** Discards every change of this transaction. */
    void rollback();

    /** Whether the transaction is neither committed nor rolled back. */
    boolean isActive();

    /** Rolls back if still active. */
    @Override
    void close();
}
