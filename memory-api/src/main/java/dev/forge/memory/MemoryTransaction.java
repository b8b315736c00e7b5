package dev.forge.memory;

import java.util.List;
import java.util.Map;
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
