package dev.forge.memory.hybrid;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderContext;
import java.util.Set;

/**
 * Opens {@link HybridMemoryProvider}s: the provider named {@value HybridMemoryProvider#NAME}, configured by
 * {@link HybridConfig}.
 */
public final class HybridMemoryProviderFactory implements MemoryProviderFactory {

    /** Does nothing; all work happens in {@link #open}. */
    public HybridMemoryProviderFactory() {
    }

    @Override
    public String name() {
        return HybridMemoryProvider.NAME;
    }

    @Override
    public String description() {
        return "A router: a cache in front of a storage provider, with search and relationships providers kept in step"
                + " through a durable outbox.";
    }

    /** None by itself: an open router's capabilities are computed from the children its config names. */
    @Override
    public Set<Capability> capabilities() {
        return Set.of();
    }

    /**
     * Binds the config to {@link HybridConfig}, opens the children it names through the context's provider registry,
     * and replays the outbox.
     *
     * @throws dev.forge.memory.ConfigurationException      for an unknown key, a bad value, a missing storage block, an
     *                                                      unknown child provider or a relationships child without graph
     * @throws dev.forge.memory.BackendUnavailableException if a child cannot be reached
     */
    @Override
    public MemoryProvider open(ProviderContext context) {
        return HybridMemoryProvider.open(context, context.config().bind(HybridConfig.class));
    }
}
