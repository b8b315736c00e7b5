package dev.forge.memory.hybrid;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/**
 * The conformance suite against in-memory storage with tombstones, which restores, and search (hashing model) and
 * relationships children that do not: restores reach them as sets ({@link TestInMemoryProviderFactory}).
 */
class HybridInMemoryChildrenWithoutRestoreConformanceTest extends MemoryProviderConformance {

    /** The in-memory children live in this JVM, one store per test directory: nothing is kept under the forge home. */
    @Override
    protected boolean sharesGlobalThroughForgeHome() {
        return false;
    }

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return HybridStores.provider(context, HybridStores.config(HybridStores.inMemory("storage", "tombstones", true),
                HybridStores.inMemory("search", "restore", false, "embedding", Map.of("model", "hashing")),
                HybridStores.inMemory("relations", "restore", false), Map.of()));
    }
}
