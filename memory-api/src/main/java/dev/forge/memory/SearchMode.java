package dev.forge.memory;

/** How {@link MemoryProvider#search} matches text. */
public enum SearchMode {
    /** Words of the query found in the key, tags or value; needs {@link Capability#KEYWORD_SEARCH}. */
    KEYWORD,
    /** Nearest neighbours by meaning; needs {@link Capability#SEMANTIC_SEARCH}. */
    SEMANTIC,
    /** Keyword and semantic results fused into one ranking; needs {@link Capability#SEMANTIC_SEARCH}. */
    HYBRID;

    /** The capability a provider needs to serve this mode. */
    public Capability requiredCapability() {
        return this == KEYWORD ? Capability.KEYWORD_SEARCH : Capability.SEMANTIC_SEARCH;
    }
}
