package dev.forge.memory.graph;

import dev.forge.memory.support.ConfiguredProviderFactory;

/**
 * Opens {@link GraphMemoryProvider}s: the provider named {@value GraphMemoryProvider#NAME}, configured by
 * {@link GraphConfig} and, beside it, an optional {@value GraphConfig#EMBEDDING} block ({@code {model: hashing}})
 * that turns on semantic and hybrid search.
 */
public final class GraphMemoryProviderFactory extends ConfiguredProviderFactory<GraphConfig> {

    /** Does nothing; all work happens in {@link #open}. */
    public GraphMemoryProviderFactory() {
        super(GraphMemoryProvider.NAME, GraphConfig.class, GraphMemoryProvider.CAPABILITIES, "Neo4j over Bolt: typed "
                + "relations and traversal, full-text keyword search, transactions, history with tombstones; semantic "
                + "search with an embedding model.", GraphConfig::settings, GraphConfig.EMBEDDING, GraphMemoryProvider::open);
    }
}
