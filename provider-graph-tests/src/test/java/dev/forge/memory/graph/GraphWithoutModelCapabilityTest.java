package dev.forge.memory.graph;

import java.util.HashMap;
import java.util.Map;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.CapabilityContract;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;

/**
 * The capability contract against the graph provider without an {@code embedding} block: no SEMANTIC_SEARCH, no
 * REINDEX, and {@code reindexing()} empty (the full suite runs with a model in {@link GraphConformanceTest}).
 */
class GraphWithoutModelCapabilityTest extends CapabilityContract {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        Map<String, Object> config = new HashMap<>(GraphConformanceTest.config(context));
        config.remove("embedding");
        return new GraphMemoryProviderFactory().open(context.withConfig(ProviderConfig.of(config, "test", "memory.config")));
    }
}
