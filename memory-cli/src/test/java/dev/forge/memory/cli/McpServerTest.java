package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpSyncClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code forge-memory mcp} in a real child process, driven by the MCP SDK's client over stdio: one server per bundled
 * provider that runs without Neo4j, each on a real store in a temporary project.
 */
class McpServerTest {

    @TempDir
    Path root;

    static Stream<Arguments> providers() {
        return Stream.of(
                Arguments.of("file", "memory:\n  provider: file\n", true, true, false),
                Arguments.of("markdown", "memory:\n  provider: markdown\n", true, true, false),
                Arguments.of("sqlite", "memory:\n  provider: sqlite\n", true, true, false),
                Arguments.of("vector", "memory:\n  provider: vector\n  config:\n    embedding: { model: hashing }\n",
                        false, false, true),
                Arguments.of("hybrid", "memory:\n  provider: hybrid\n  config:\n"
                        + "    storage: { provider: sqlite, path: .forge/memory.db }\n"
                        + "    search: { provider: vector, path: .forge/vectors, embedding: { model: hashing } }\n"
                        + "    relationships: { provider: sqlite, path: .forge/graph.db }\n", true, true, true));
    }

    private Path project(String config) throws IOException {
        Path project = Files.createDirectories(root.resolve("project"));
        Files.writeString(Files.createDirectories(project.resolve(".forge")).resolve("config.yaml"), config);
        return project;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("providers")
    void a_client_stores_finds_and_relates_memories(String provider, String config, boolean graph, boolean history,
            boolean semantic) throws Exception {
        Path project = project(config);
        List<String> stderr = McpServers.stderr();
        try (McpSyncClient client = McpServers.connect(project, Files.createDirectories(root.resolve("forge-home")),
                Files.createDirectories(root.resolve("tmp")), stderr)) {
            McpScenario.storesFindsAndRelates(client, provider, graph, history, semantic);
        }
        assertThat(stderr).as("the server's stderr").noneMatch(line -> line.contains("Exception"));
    }
}
