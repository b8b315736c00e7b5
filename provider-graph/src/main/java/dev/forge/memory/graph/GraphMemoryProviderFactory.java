package dev.forge.memory.graph;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.Setting;
import dev.forge.memory.support.ConfiguredProviderFactory;
import java.util.List;

/**
 * Opens {@link GraphMemoryProvider}s: the provider named {@value GraphMemoryProvider#NAME}, configured by
 * {@link GraphConfig} and, beside it, an optional {@value GraphConfig#EMBEDDING} block.
 */
public final class GraphMemoryProviderFactory extends ConfiguredProviderFactory<GraphConfig> {

    /** Does nothing; all work happens in {@link #open}. */
    public GraphMemoryProviderFactory() {
        super(GraphMemoryProvider.NAME, GraphConfig.class, GraphMemoryProvider.CAPABILITIES, "Neo4j over Bolt: typed "
                + "relations and traversal, full-text keyword search, transactions, history with tombstones; semantic "
                + "search with an embedding model.", GraphConfig.EMBEDDING);
    }

    /** {@link GraphConfig}'s keys and the embedding block. */
    @Override
    public List<Setting> settings() {
        return GraphConfig.settings();
    }

    /**
     * Connects to the server the config names; an {@code embedding} block ({@code {model: hashing}}) opens that
     * embedding model and offers semantic and hybrid search.
     *
     * @throws dev.forge.memory.ConfigurationException      for an unknown embedding model, or a store whose vectors
     *                                                      another model made
     * @throws dev.forge.memory.BackendUnavailableException if the server cannot be reached within the connect timeout
     */
    @Override
    protected MemoryProvider open(ProviderContext context, GraphConfig config) {
        return withModel(context, model -> GraphMemoryProvider.open(context, config, model));
    }
}
