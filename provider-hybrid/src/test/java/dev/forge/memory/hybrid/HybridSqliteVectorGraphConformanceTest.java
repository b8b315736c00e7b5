package dev.forge.memory.hybrid;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.graph.TestNeo4j;
import dev.forge.memory.spi.ProviderContext;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

/**
 * The conformance suite against sqlite storage, a vector search child (hashing model) and Neo4j as the relationships
 * child, on the shared test server of provider-graph's tests (NEO4J_URI, Testcontainers, else neo4j-harness).
 */
class HybridSqliteVectorGraphConformanceTest extends MemoryProviderConformance {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return HybridStores.provider(context, HybridStores.config(Map.of("provider", "sqlite"), HybridStores.vector(),
                graph(context), Map.of()));
    }

    /** The graph child on the shared server, in a store of its own per test directory. */
    static Map<String, Object> graph(ProviderContext context) {
        TestNeo4j.Server server = TestNeo4j.server();
        String store = UUID.nameUUIDFromBytes(context.baseDirectory().toString().getBytes(StandardCharsets.UTF_8)).toString();
        return Map.of("provider", "graph", "url", server.uri().toString(), "username", server.username(),
                "password", server.password(), "store", store);
    }
}
