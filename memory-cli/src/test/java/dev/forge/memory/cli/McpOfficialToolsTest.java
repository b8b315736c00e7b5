package dev.forge.memory.cli;

import static dev.forge.memory.cli.McpServers.MAPPER;
import static dev.forge.memory.cli.McpServers.error;
import static dev.forge.memory.cli.McpServers.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code forge-memory mcp --tools official}, a real server process driven by the MCP SDK's client: every call the
 * official memory server answered when its {@code memory.jsonl} fixture was made ({@code /mcp/official-answers.json},
 * see the README beside it) is sent to our server over stdio, and each answer is the official one (reads as sets:
 * entities come in key order here, in creation order there). Then the tools that page, and a bad call that leaves
 * the session running.
 */
class McpOfficialToolsTest {

    private static final List<String> OFFICIAL_TOOLS = List.of("create_entities", "create_relations", "add_observations",
            "delete_entities", "delete_observations", "delete_relations", "read_graph", "search_nodes", "open_nodes");

    @TempDir
    Path root;

    private McpSyncClient connect(String tools) throws IOException {
        Path project = Files.createDirectories(root.resolve("project"));
        Files.writeString(Files.createDirectories(project.resolve(".forge")).resolve("config.yaml"),
                "memory:\n  provider: sqlite\n");
        List<String> command = new ArrayList<>(McpServers.command(project, Files.createDirectories(root.resolve("tmp"))));
        command.addAll(List.of("--tools", tools));
        return McpServers.connect(command, Files.createDirectories(root.resolve("forge-home")), McpServers.stderr());
    }

    @Test
    void every_call_made_to_the_official_server_gets_the_official_answer_over_stdio() throws IOException {
        JsonNode calls;
        try (InputStream in = getClass().getResourceAsStream("/mcp/official-answers.json")) {
            calls = MAPPER.readTree(in);
        }
        try (McpSyncClient client = connect("official")) {
            assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name)
                    .containsExactlyElementsOf(OFFICIAL_TOOLS);
            for (JsonNode call : calls) {
                String tool = call.path("tool").asText();
                @SuppressWarnings("unchecked")
                Map<String, Object> arguments = MAPPER.convertValue(call.path("arguments"), Map.class);
                JsonNode answer = ok(client, tool, arguments);
                JsonNode expected = call.path("result");
                String what = tool + " " + arguments;
                if (tool.equals("read_graph") || tool.equals("search_nodes") || tool.equals("open_nodes")) {
                    assertThat(set(answer.path("entities"))).as(what).isEqualTo(set(expected.path("entities")));
                    assertThat(set(answer.path("relations"))).as(what).isEqualTo(set(expected.path("relations")));
                    assertThat(answer.has("nextCursor")).as(what).isFalse();
                } else {
                    assertThat(answer).as(what).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void reads_page_and_a_bad_call_is_a_tool_error_the_session_survives() throws IOException {
        try (McpSyncClient client = connect("all")) {
            assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name).contains("set", "create_entities");
            List<Map<String, Object>> entities = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                entities.add(Map.of("name", "person " + i, "entityType", "person", "observations", List.of("likes tea")));
            }
            assertThat(ok(client, "create_entities", Map.of("entities", entities)).path("entities")).hasSize(5);

            JsonNode first = ok(client, "search_nodes", Map.of("query", "TEA", "limit", 3));
            assertThat(first.path("entities")).hasSize(3);
            JsonNode rest = ok(client, "search_nodes", Map.of("query", "TEA", "limit", 3,
                    "cursor", first.path("nextCursor").asText()));
            assertThat(rest.path("entities")).hasSize(2);
            assertThat(rest.has("nextCursor")).isFalse();

            assertThat(error(client, "create_entities", Map.of("entities", List.of(Map.of("name", "x")))))
                    .contains("entities");
            assertThat(error(client, "add_observations", Map.of("observations",
                    List.of(Map.of("entityName", "nobody", "contents", List.of("x")))))).contains("nobody");
            // the graph lives in GLOBAL: the native tools see an entity there
            assertThat(ok(client, "query", Map.of("pattern", "entity:*", "scopes", List.of("global")))
                    .path("entries")).hasSize(5);
        }
    }

    private static Set<JsonNode> set(JsonNode array) {
        Set<JsonNode> items = new HashSet<>();
        array.forEach(items::add);
        return items;
    }
}
