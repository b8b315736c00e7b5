package dev.forge.memory.vector;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderContext;

import java.util.Set;

/**
 * Opens {@link VectorMemoryProvider}s: the provider named {@value VectorMemoryProvider#NAME}, configured by
 * {@link VectorConfig}.
 */
public final class VectorMemoryProviderFactory implements MemoryProviderFactory {

    /** Does nothing; all work happens in {@link #open}. */
    public VectorMemoryProviderFactory() {
    }

    @Override
    public String name() {
        return VectorMemoryProvider.NAME;
    }

    @Override
    public String description() {
        return "A Lucene index: HNSW vector search with a local embedding model, BM25 keyword search and their fusion.";
    }

    @Override
    public Set<Capability> capabilities() {
        return VectorMemoryProvider.CAPABILITIES;
    }

    /**
     * Binds the config to {@link VectorConfig} and opens the index it names, creating it when missing.
     *
     * @throws dev.forge.memory.ConfigurationException      for an unknown key, a bad value or an unknown model
     * @throws dev.forge.memory.IndexModelMismatchException if the index was built by another model
     * @throws dev.forge.memory.BackendUnavailableException if another process has the index open
     * @throws dev.forge.memory.CorruptEntryException       if the index files are damaged
     */
    @Override
    public MemoryProvider open(ProviderContext context) {
        return VectorMemoryProvider.open(context, context.config().bind(VectorConfig.class));
    }
}
