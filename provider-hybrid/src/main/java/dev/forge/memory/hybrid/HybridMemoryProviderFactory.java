package dev.forge.memory.hybrid;

import dev.forge.memory.support.ConfiguredProviderFactory;
import java.util.Set;

/**
 * Opens {@link HybridMemoryProvider}s: the provider named {@value HybridMemoryProvider#NAME}, configured by
 * {@link HybridConfig}; it opens the children its config names through the context's provider registry. It reports
 * no capabilities by itself: an open router's are computed from its children.
 */
public final class HybridMemoryProviderFactory extends ConfiguredProviderFactory<HybridConfig> {

    /** Does nothing; all work happens in {@link #open}. */
    public HybridMemoryProviderFactory() {
        super(HybridMemoryProvider.NAME, HybridConfig.class, Set.of(), "A router: a cache in front of a storage "
                + "provider, with search and relationships providers kept in step through a durable outbox.",
                HybridConfig::settings, HybridMemoryProvider::open);
    }
}
