package dev.forge.memory.vector;

import dev.forge.memory.support.ConfiguredProviderFactory;

/**
 * Opens {@link VectorMemoryProvider}s: the provider named {@value VectorMemoryProvider#NAME}, configured by
 * {@link VectorConfig}, on the index it names, created when missing.
 */
public final class VectorMemoryProviderFactory extends ConfiguredProviderFactory<VectorConfig> {

    /** Does nothing; all work happens in {@link #open}. */
    public VectorMemoryProviderFactory() {
        super(VectorMemoryProvider.NAME, VectorConfig.class, VectorMemoryProvider.CAPABILITIES, "A Lucene index: HNSW "
                + "vector search with a local embedding model, BM25 keyword search and their fusion.",
                VectorConfig::settings, VectorMemoryProvider::open);
    }
}
