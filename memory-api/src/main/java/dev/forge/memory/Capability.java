package dev.forge.memory;

/**
 * An optional ability of a provider, reported by {@link MemoryProvider#capabilities()}.
 *
 * <p>Get, set, query, delete and clear are not capabilities: every provider has them.
 */
public enum Capability {
    /** {@link SearchMode#KEYWORD} search. */
    KEYWORD_SEARCH,
    /** {@link SearchMode#SEMANTIC} and {@link SearchMode#HYBRID} search, backed by embeddings; implies {@link #KEYWORD_SEARCH}. */
    SEMANTIC_SEARCH,
    /** Typed relations between entries: {@link MemoryProvider#graph()} is present. */
    GRAPH,
    /** Atomic multi-entry changes: {@link MemoryProvider#transactions()} is present. */
    TRANSACTIONS,
    /** Every version of a key is kept: {@link MemoryProvider#history()} is present. */
    HISTORY,
    /** Deletions are recorded as tombstone versions ({@link MemoryProvider#delete}), not erased; implies {@link #HISTORY}. */
    TOMBSTONES,
    /** Derived indexes (vectors, full-text) can be rebuilt from the entries: {@link MemoryProvider#reindexing()} is present. */
    REINDEX,
    /** Entries can be written back exactly as exported ({@link Restoring}): {@link MemoryProvider#restoring()} is present. */
    RESTORE,
    /** Indexes on entry fields ({@link FieldIndexing}): {@link MemoryProvider#fieldIndexing()} is present. */
    FIELD_INDEX
}
