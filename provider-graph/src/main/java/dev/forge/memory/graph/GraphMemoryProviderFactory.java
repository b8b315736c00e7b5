package dev.forge.memory.graph;

import java.util.Optional;
import java.util.Set;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.EmbeddingModels;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;

/**
 * Opens {@link GraphMemoryProvider}s: the provider named {@value GraphMemoryProvider#NAME}, configured by
 * {@link GraphConfig}.
 */
public final class GraphMemoryProviderFactory implements MemoryProviderFactory {

    /** Does nothing; all work happens in {@link #open}. */
    public GraphMemoryProviderFactory() {
    }

    @Override
    public String name() {
        return GraphMemoryProvider.NAME;
    }

    @Override
    public String description() {
        return "Neo4j over Bolt: typed relations and traversal, full-text keyword search, transactions, history with tombstones; semantic search with an embedding model.";
    }

    @Override
    public Set<Capability> capabilities() {
        return GraphMemoryProvider.CAPABILITIES;
    }

    /**
     * Binds the config to {@link GraphConfig} and connects to the server it names; an {@code embedding} block
     * ({@code {model: hashing}}) opens that embedding model and offers semantic and hybrid search.
     *
     * @throws dev.forge.memory.ConfigurationException      for an unknown key or a bad value, an unknown embedding model,
     *                                                      or a store whose vectors another model made
     * @throws dev.forge.memory.BackendUnavailableException if the server cannot be reached within the connect timeout
     */
    @Override
    public MemoryProvider open(ProviderContext context) {
        ProviderConfig config = context.config();
        GraphConfig settings = config.without(GraphConfig.EMBEDDING).bind(GraphConfig.class);
        Optional<EmbeddingModel> model = config.child(GraphConfig.EMBEDDING).map(block -> EmbeddingModels.load().open(block));
        try {
            return GraphMemoryProvider.open(context, settings, model);
        } catch (RuntimeException e) {
            model.ifPresent(EmbeddingModel::close);
            throw e;
        }
    }
}
