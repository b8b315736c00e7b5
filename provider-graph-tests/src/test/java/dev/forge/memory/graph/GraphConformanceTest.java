package dev.forge.memory.graph;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.spi.ProviderContext;

/**
 * The whole conformance suite against the graph provider on the shared test server, with the built-in
 * {@code hashing} embedding model, so semantic and hybrid search run too (the refusal without a model is
 * {@link GraphEmbeddingTest}'s: one conformance run keeps the module's time down). Every test's store is separate on that one server: its store id is derived from the test's base
 * directory, so the same directory opens the same store (reopen tests) and a new directory an empty one.
 */
class GraphConformanceTest extends MemoryProviderConformance {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new GraphMemoryProviderFactory().open(withSettings(context, config(context)));
    }

    static Map<String, Object> config(ProviderContext context) {
        // One store per forge home, as one user's projects share one database: each test has a forge home of its own.
        String store = UUID.nameUUIDFromBytes(context.forgeHome().toString().getBytes(StandardCharsets.UTF_8)).toString();
        Map<String, Object> config = TestNeo4j.connection();
        config.put("store", store);
        config.put("embedding", Map.of("model", "hashing"));
        return config;
    }
}
