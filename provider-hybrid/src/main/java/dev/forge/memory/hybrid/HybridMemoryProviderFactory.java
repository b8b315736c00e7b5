package dev.forge.memory.hybrid;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.Setting;
import dev.forge.memory.support.ConfiguredProviderFactory;
import java.util.List;
import java.util.Set;

/**
 * Opens {@link HybridMemoryProvider}s: the provider named {@value HybridMemoryProvider#NAME}, configured by
 * {@link HybridConfig}. It reports no capabilities by itself: an open router's are computed from the children its
 * config names.
 */
public final class HybridMemoryProviderFactory extends ConfiguredProviderFactory<HybridConfig> {

    /** Does nothing; all work happens in {@link #open}. */
    public HybridMemoryProviderFactory() {
        super(HybridMemoryProvider.NAME, HybridConfig.class, Set.of(), "A router: a cache in front of a storage "
                + "provider, with search and relationships providers kept in step through a durable outbox.");
    }

    /** {@link HybridConfig}'s keys, the child blocks with an example each. */
    @Override
    public List<Setting> settings() {
        return HybridConfig.settings();
    }

    /**
     * Opens the children the config names through the context's provider registry, and replays the outbox.
     *
     * @throws dev.forge.memory.ConfigurationException      for an unknown child provider or a relationships child
     *                                                      without graph
     * @throws dev.forge.memory.BackendUnavailableException if a child cannot be reached
     */
    @Override
    protected MemoryProvider open(ProviderContext context, HybridConfig config) {
        return HybridMemoryProvider.open(context, config);
    }
}
