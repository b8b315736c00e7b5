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
    /**
     * Deletions are recorded, not erased; implies {@link #HISTORY}. {@link MemoryProvider#delete} and
     * {@link MemoryProvider#clear} append a tombstone version: the key's earlier versions stay in its history, and a
     * key written again continues the numbering after the tombstone. {@link VersionHistory#purge} erases them.
     */
    TOMBSTONES,
    /**
     * The provider keeps derived indexes (vectors, full-text) that can be rebuilt from the stored entries:
     * {@link MemoryProvider#reindexing()} is present.
     */
    REINDEX,
    /**
     * Entries can be written back exactly as they were exported: versions, timestamps and (with {@link #HISTORY})
     * earlier versions: {@link MemoryProvider#restoring()} is present. What lossless import and migration use.
     */
    RESTORE
}
