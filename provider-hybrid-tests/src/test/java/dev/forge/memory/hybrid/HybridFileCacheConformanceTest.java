package dev.forge.memory.hybrid;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/** The conformance suite against file storage alone behind a small cache (evictions happen during the suite). */
class HybridFileCacheConformanceTest extends MemoryProviderConformance {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return HybridStores.provider(context, HybridStores.config(Map.of("provider", "file"), null, null,
                Map.of("cache", Map.of("ttl", "10m", "max_entries", 64))));
    }
}
