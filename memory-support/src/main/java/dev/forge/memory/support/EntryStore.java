package dev.forge.memory.support;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import java.util.List;
import java.util.Optional;

/**
 * The core calls of a provider's store, as a {@link StoreBackedMemoryProvider} forwards them: each method does its own
 * checks (open, key, scope) and throws the SPI's exceptions, so that the provider adds nothing.
 */
public interface EntryStore {

    /**
     * Throws if the store is closed.
     *
     * @throws dev.forge.memory.BackendUnavailableException if it is
     */
    void checkOpen();

    /** See {@link dev.forge.memory.MemoryProvider#get}. */
    Optional<MemoryEntry> get(String key, Scope scope);

    /** Stores a write that passed every rule; see {@link dev.forge.memory.MemoryProvider#set}. */
    MemoryEntry set(EntryWrite write);

    /** See {@link dev.forge.memory.MemoryProvider#query}. */
    List<MemoryEntry> query(Query query);

    /** See {@link dev.forge.memory.MemoryProvider#delete}. */
    boolean delete(String key, Scope scope);

    /** See {@link dev.forge.memory.MemoryProvider#clear}. */
    int clear(Scope scope);

    /** See {@link dev.forge.memory.MemoryProvider#endSession}. */
    int endSession();

    /** Writes a checked version chain back; see {@link dev.forge.memory.Restoring#restore}. */
    MemoryEntry restore(List<MemoryEntry> chain);

    /**
     * Writes checked chains of several keys back; see {@link dev.forge.memory.Restoring#restoreAll}. The default writes
     * one chain after the other; a store with transactions overrides it to write the batch in one.
     */
    default List<MemoryEntry> restoreAll(List<List<MemoryEntry>> chains) {
        return chains.stream().map(this::restore).toList();
    }
}
