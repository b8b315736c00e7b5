package dev.forge.memory.graph;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.fuzz.InjectionContract;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.util.List;

/**
 * Cypher injection through keys, values, tags, metadata, patterns, search texts and relation types changes nothing
 * else on the shared test server. Three hostile texts only: each costs a few dozen round trips to Neo4j.
 */
class GraphInjectionTest extends InjectionContract {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new GraphMemoryProviderFactory().open(context.withConfig(
                ProviderConfig.of(GraphConformanceTest.config(context), "test", "memory.config")));
    }

    @Override
    protected String providerName() {
        return "graph";
    }

    @Override
    protected List<String> hostileTexts() {
        return List.of("x'}) MATCH (n) DETACH DELETE n //", "`) DETACH DELETE n //", "x\"}) MATCH (m) SET m.value = 'pwned' //");
    }
}
