package dev.forge.memory.cli;

import static dev.forge.memory.cli.McpServers.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.client.McpSyncClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A running server sees what another process writes to its store, and two servers on one store lose nothing: the
 * provider is opened once per server, and reads pick up changes made outside it.
 */
class McpSharedStoreTest {

    @TempDir
    Path root;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"file", "markdown", "sqlite"})
    void a_server_and_the_command_line_share_one_store(String provider) throws Exception {
        CliHarness cli = new CliHarness(root);
        Files.writeString(Files.createDirectories(cli.project.resolve(".forge")).resolve("config.yaml"),
                "memory:\n  provider: " + provider + "\n");
        try (McpSyncClient server = McpServers.connect(cli.project, cli.forgeHome,
                Files.createDirectories(root.resolve("tmp")), McpServers.stderr())) {
            ok(server, "set", Map.of("key", "from-server", "value", "written by the server"));
            assertThat(cli.ok("get", "from-server").out()).isEqualTo("written by the server\n");

            cli.ok("set", "from-cli", "written by the command line");
            assertThat(ok(server, "get", Map.of("key", "from-cli")).get("value").asText())
                    .isEqualTo("written by the command line");

            cli.ok("set", "from-server", "overwritten by the command line");
            JsonNode overwritten = ok(server, "get", Map.of("key", "from-server"));
            assertThat(overwritten.get("value").asText()).isEqualTo("overwritten by the command line");
            assertThat(overwritten.get("version").asLong()).isEqualTo(2);

            cli.ok("delete", "from-cli");
            assertThat(ok(server, "query", Map.of()).get("entries")).extracting(e -> e.get("key").asText())
                    .containsExactly("from-server");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"file", "markdown", "sqlite"})
    void two_servers_on_one_store_lose_no_write(String provider) throws Exception {
        Path project = Files.createDirectories(root.resolve("project"));
        Files.writeString(Files.createDirectories(project.resolve(".forge")).resolve("config.yaml"),
                "memory:\n  provider: " + provider + "\n");
        Path home = Files.createDirectories(root.resolve("forge-home"));
        Path tmp = Files.createDirectories(root.resolve("tmp"));
        try (McpSyncClient a = McpServers.connect(project, home, tmp, McpServers.stderr());
                McpSyncClient b = McpServers.connect(project, home, tmp, McpServers.stderr())) {
            for (int i = 0; i < 5; i++) {
                ok(a, "set", Map.of("key", "a:" + i, "value", "from a " + i));
                ok(b, "set", Map.of("key", "b:" + i, "value", "from b " + i));
                ok(i % 2 == 0 ? a : b, "set", Map.of("key", "shared", "value", "write " + i));
            }
            for (McpSyncClient client : new McpSyncClient[] {a, b}) {
                assertThat(ok(client, "query", Map.of("limit", 100)).get("entries")).hasSize(11);
                JsonNode shared = ok(client, "get", Map.of("key", "shared"));
                assertThat(shared.get("value").asText()).isEqualTo("write 4");
                assertThat(shared.get("version").asLong()).isEqualTo(5);
            }
        }
    }
}
