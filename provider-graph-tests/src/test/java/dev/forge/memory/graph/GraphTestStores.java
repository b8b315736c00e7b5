package dev.forge.memory.graph;

import java.nio.file.Path;
import java.util.Map;

import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;

/** Graph providers and plain drivers on the shared test server, for tests that look at the nodes themselves. */
final class GraphTestStores {

    private GraphTestStores() {
    }

    /**
     * A provider for {@code project} on a store of {@code directory} (the conformance settings, with the
     * {@code hashing} model), {@code settings} added to its config.
     */
    static MemoryProvider open(Path directory, String project, Map<String, Object> settings) {
        ProviderContext context = ProviderContext.builder().projectId(project).sessionId("s").baseDirectory(directory)
                .forgeHome(directory.resolve("forge-home")).registry(ProviderRegistry.of()).build();
        Map<String, Object> config = new java.util.HashMap<>(GraphConformanceTest.config(context));
        config.putAll(settings);
        return new GraphMemoryProviderFactory().open(context.withConfig(ProviderConfig.of(config, "test.yaml", "memory.config")));
    }

    /** A driver of the test server; the caller closes it. */
    static Driver driver() {
        TestNeo4j.Server server = TestNeo4j.server();
        return GraphDatabase.driver(server.uri(), server.username().isEmpty() ? AuthTokens.none()
                : AuthTokens.basic(server.username(), server.password()));
    }
}
