package dev.forge.memory.graph;

import java.util.Set;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.MemoryProviderFactory;
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
        return "Neo4j over Bolt: typed relations and traversal, full-text keyword search, transactions, history with tombstones.";
    }

    @Override
    public Set<Capability> capabilities() {
        return GraphMemoryProvider.CAPABILITIES;
    }

    /**
     * Binds the config to {@link GraphConfig} and connects to the server it names.
     *
     * @throws dev.forge.memory.ConfigurationException      for an unknown key or a bad value
     * @throws dev.forge.memory.BackendUnavailableException if the server cannot be reached within the connect timeout
     */
    @Override
    public MemoryProvider open(ProviderContext context) {
        return GraphMemoryProvider.open(context, context.config().bind(GraphConfig.class));
    }
}
