package dev.forge.memory.hybrid;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/** The conformance suite against sqlite storage with a vector search child (hashing model) behind the cache. */
class HybridSqliteVectorConformanceTest extends MemoryProviderConformance {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return HybridStores.provider(context, HybridStores.config(Map.of("provider", "sqlite"), HybridStores.vector(),
                null, Map.of()));
    }
}
