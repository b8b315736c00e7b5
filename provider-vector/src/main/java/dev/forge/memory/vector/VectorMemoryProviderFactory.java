package dev.forge.memory.vector;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.Setting;
import dev.forge.memory.support.ConfiguredProviderFactory;
import java.util.List;

/**
 * Opens {@link VectorMemoryProvider}s: the provider named {@value VectorMemoryProvider#NAME}, configured by
 * {@link VectorConfig}.
 */
public final class VectorMemoryProviderFactory extends ConfiguredProviderFactory<VectorConfig> {

    /** Does nothing; all work happens in {@link #open}. */
    public VectorMemoryProviderFactory() {
        super(VectorMemoryProvider.NAME, VectorConfig.class, VectorMemoryProvider.CAPABILITIES, "A Lucene index: HNSW "
                + "vector search with a local embedding model, BM25 keyword search and their fusion.");
    }

    /** {@link VectorConfig}'s keys. */
    @Override
    public List<Setting> settings() {
        return VectorConfig.settings();
    }

    /**
     * Opens the index the config names, creating it when missing.
     *
     * @throws dev.forge.memory.ConfigurationException      for an unknown model
     * @throws dev.forge.memory.IndexModelMismatchException if the index was built by another model
     * @throws dev.forge.memory.BackendUnavailableException if another process has the index open
     * @throws dev.forge.memory.CorruptEntryException       if the index files are damaged
     */
    @Override
    protected MemoryProvider open(ProviderContext context, VectorConfig config) {
        return VectorMemoryProvider.open(context, config);
    }
}
