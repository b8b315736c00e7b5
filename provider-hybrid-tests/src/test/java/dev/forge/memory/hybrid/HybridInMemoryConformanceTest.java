package dev.forge.memory.hybrid;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/**
 * The conformance suite against in-memory storage, search (hashing model) and relationships children, all of which
 * restore: restores reach every child as restores ({@link TestInMemoryProviderFactory}).
 */
class HybridInMemoryConformanceTest extends MemoryProviderConformance {

    /** The in-memory children live in this JVM, one store per test directory: nothing is kept under the forge home. */
    @Override
    protected boolean sharesGlobalThroughForgeHome() {
        return false;
    }

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return HybridStores.provider(context, HybridStores.config(HybridStores.inMemory("storage"),
                HybridStores.inMemory("search", "embedding", Map.of("model", "hashing")),
                HybridStores.inMemory("relations"), Map.of()));
    }
}
