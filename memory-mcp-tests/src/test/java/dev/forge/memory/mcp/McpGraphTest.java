package dev.forge.memory.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.cli.McpScenario;
import dev.forge.memory.cli.McpServers;
import dev.forge.memory.graph.TestNeo4j;
import io.modelcontextprotocol.client.McpSyncClient;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code forge-memory mcp} over the graph provider, driven by the MCP SDK's client over stdio: the server is a child JVM
 * with the command line tool and the graph plugin but no Neo4j server on its class path, connected by Bolt to the
 * shared test server ({@link TestNeo4j}: {@code NEO4J_URI}, Testcontainers, else the in-process harness of this JVM).
 * The same scenario as memory-cli's {@code McpServerTest} runs on {@code graph} alone and on a hybrid whose
 * relationships child is {@code graph}.
 */
class McpGraphTest {

    @TempDir
    Path root;

    /** The Bolt connection block of the test server, with a store of this test's own. */
    private static String neo4j() {
        TestNeo4j.Server server = TestNeo4j.server();
        return "url: \"" + server.uri() + "\", username: \"" + server.username() + "\", password: \""
                + server.password() + "\", store: \"mcp-" + UUID.randomUUID() + "\", query_timeout: "
                + TestNeo4j.QUERY_TIMEOUT + ", connect_timeout: " + TestNeo4j.CONNECT_TIMEOUT;
    }

    @Test
    void a_client_stores_finds_relates_and_traverses_memories_on_graph() throws Exception {
        serve("memory:\n  provider: graph\n  config: { " + neo4j() + ", embedding: { model: hashing } }\n", "graph");
    }

    @Test
    void a_client_stores_finds_relates_and_traverses_memories_on_a_hybrid_with_graph_relationships() throws Exception {
        serve("memory:\n  provider: hybrid\n  config:\n"
                + "    storage: { provider: sqlite, path: .forge/memory.db }\n"
                + "    search: { provider: vector, path: .forge/vectors, embedding: { model: hashing } }\n"
                + "    relationships: { provider: graph, " + neo4j() + " }\n", "hybrid");
    }

    private void serve(String config, String provider) throws Exception {
        Path project = Files.createDirectories(root.resolve("project"));
        Files.writeString(Files.createDirectories(project.resolve(".forge")).resolve("config.yaml"), config);
        List<String> stderr = McpServers.stderr();
        List<String> command = McpServers.command(serverClassPath(), project, Files.createDirectories(root.resolve("tmp")),
                List.of());
        try (McpSyncClient client = McpServers.connect(command, Files.createDirectories(root.resolve("forge-home")), stderr)) {
            McpScenario.storesFindsAndRelates(client, provider, true, true, true);
        }
        assertThat(stderr).as("the server's stderr").noneMatch(line -> line.contains("Exception") || line.contains("WARN"));
    }

    /**
     * This JVM's class path without the Neo4j server (the harness and the server modules it brings: everything under
     * {@code org/neo4j} but the driver's groups, {@code org.neo4j.driver} and {@code org.neo4j.bolt}), Testcontainers
     * and the test classes: the command line tool with the graph plugin, as a user runs it.
     */
    static String serverClassPath() {
        List<String> kept = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !neo4jServerOrTests(entry.replace(File.separatorChar, '/')))
                .toList();
        assertThat(kept).as("the server's class path").anyMatch(entry -> entry.contains("provider-graph"))
                .anyMatch(entry -> entry.contains("memory-cli")).noneMatch(entry -> entry.contains("neo4j-harness"));
        return kept.stream().collect(Collectors.joining(File.pathSeparator));
    }

    private static boolean neo4jServerOrTests(String entry) {
        return entry.contains("/org/neo4j/") && !entry.contains("/org/neo4j/driver/") && !entry.contains("/org/neo4j/bolt/")
                || entry.contains("/org/testcontainers/")
                || entry.endsWith("/test-classes") || entry.endsWith("-tests.jar");
    }
}
