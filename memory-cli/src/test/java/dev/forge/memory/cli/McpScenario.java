package dev.forge.memory.cli;

import static dev.forge.memory.cli.McpServers.error;
import static dev.forge.memory.cli.McpServers.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What an agent does with {@code forge-memory mcp} on an empty store, through a connected client: store, overwrite,
 * get, page a query, search, relate and traverse, history, context, bad requests on a live session, resources,
 * delete. One scenario for every provider (memory-cli's {@code McpServerTest}, memory-mcp-tests' McpGraphTest),
 * told which optional capabilities the provider has: a missing one must be a one-line tool error naming it.
 */
public final class McpScenario {

    private McpScenario() {
    }

    /**
     * Runs the scenario.
     *
     * @param provider the provider's name, which an error about a missing capability must contain
     * @param graph    whether relate and traverse work (else refused)
     * @param history  whether history works (else refused)
     * @param semantic whether semantic search works (else refused)
     */
    public static void storesFindsAndRelates(McpSyncClient client, String provider, boolean graph, boolean history,
            boolean semantic) throws IOException {
        assertThat(client.getServerInfo().name()).isEqualTo("forge-memory");
        List<McpSchema.Tool> tools = client.listTools().tools();
        assertThat(tools).extracting(McpSchema.Tool::name).containsExactly("set", "get", "query", "search", "delete",
                "relate", "traverse", "history", "context");
        assertThat(tools).allSatisfy(tool -> {
            assertThat(tool.description()).hasSizeGreaterThan(40);
            assertThat(tool.inputSchema()).containsEntry("type", "object").containsKey("properties");
        });

        JsonNode stored = ok(client, "set", Map.of("key", "decision:db", "value",
                "We chose SQLite for the cache because it is embedded.", "tags", List.of("decision")));
        assertThat(stored.get("version").asLong()).isEqualTo(1);
        ok(client, "set", Map.of("key", "issue:42", "value", "Cache misses under load."));
        ok(client, "set", Map.of("key", "decision:db", "value",
                "We chose SQLite for the cache because it is embedded and fast.", "tags", List.of("decision")));

        JsonNode got = ok(client, "get", Map.of("key", "decision:db"));
        assertThat(got.get("value").asText()).isEqualTo("We chose SQLite for the cache because it is embedded and fast.");
        assertThat(got.get("version").asLong()).isEqualTo(2);
        assertThat(got.get("scope").asText()).isEqualTo("project");

        JsonNode listed = ok(client, "query", Map.of("pattern", "*", "limit", 1));
        assertThat(listed.get("entries")).hasSize(1);
        assertThat(listed.get("entries").get(0).get("key").asText()).isEqualTo("decision:db");
        JsonNode rest = ok(client, "query", Map.of("pattern", "*", "limit", 1, "cursor", listed.get("nextCursor").asText()));
        assertThat(rest.get("entries").get(0).get("key").asText()).isEqualTo("issue:42");
        assertThat(rest.has("nextCursor")).isFalse();

        JsonNode found = ok(client, "search", Map.of("text", "SQLite embedded", "limit", 5));
        assertThat(found.get("hits").get(0).get("entry").get("key").asText()).isEqualTo("decision:db");
        if (semantic) {
            JsonNode near = ok(client, "search", Map.of("text", "sqlite cache", "mode", "semantic"));
            assertThat(near.get("hits").get(0).get("entry").get("key").asText()).isEqualTo("decision:db");
        } else {
            assertThat(error(client, "search", Map.of("text", "sqlite cache", "mode", "semantic")))
                    .contains(provider).containsIgnoringCase("semantic");
        }

        if (graph) {
            JsonNode relation = ok(client, "relate", Map.of("from", "decision:db", "to", "issue:42", "type", "CAUSED_BY"));
            assertThat(relation.get("to").get("key").asText()).isEqualTo("issue:42");
            JsonNode walk = ok(client, "traverse", Map.of("start", "decision:db"));
            assertThat(walk.get("paths")).hasSize(1);
            assertThat(walk.get("paths").get(0).get("end").get("key").asText()).isEqualTo("issue:42");
        } else {
            assertThat(error(client, "relate", Map.of("from", "decision:db", "to", "issue:42", "type", "CAUSED_BY")))
                    .contains(provider).containsIgnoringCase("graph");
        }
        if (history) {
            JsonNode versions = ok(client, "history", Map.of("key", "decision:db"));
            assertThat(versions.get("versions")).hasSize(2);
            assertThat(versions.get("deleted").asBoolean()).isFalse();
        } else {
            assertThat(error(client, "history", Map.of("key", "decision:db"))).contains(provider)
                    .containsIgnoringCase("history");
        }

        JsonNode context = ok(client, "context", Map.of("budget", 500));
        assertThat(context.get("text").asText()).contains("SQLite").contains("Cache misses");
        assertThat(context.get("page").asInt()).isEqualTo(1);

        // A bad request, then a good one, on the same session.
        assertThat(error(client, "get", Map.of("key", "decision:db", "scope", "planet")))
                .isEqualTo("Unknown scope 'planet': use one of session, project, global.");
        assertThat(error(client, "get", Map.of("key", "nope"))).isEqualTo("No entry 'nope' in scope project.");
        assertThat(error(client, "query", Map.of("limit", 500))).contains("limit").contains("100");
        assertThat(error(client, "set", Map.of("key", "", "value", "x"))).isNotBlank();
        assertThat(ok(client, "get", Map.of("key", "issue:42")).get("value").asText()).isEqualTo("Cache misses under load.");

        List<String> resources = new ArrayList<>();
        client.listResources().resources().forEach(r -> resources.add(r.uri()));
        assertThat(resources).contains("memory://project", "memory://global", "memory://session");
        JsonNode index = McpServers.MAPPER.readTree(text(client.readResource(
                new McpSchema.ReadResourceRequest("memory://project"))));
        assertThat(index.get("entries")).extracting(e -> e.get("uri").asText())
                .containsExactly("memory://project/decision%3Adb", "memory://project/issue%3A42");
        JsonNode entry = McpServers.MAPPER.readTree(text(client.readResource(
                new McpSchema.ReadResourceRequest("memory://project/issue%3A42"))));
        assertThat(entry.get("value").asText()).isEqualTo("Cache misses under load.");
        assertThatThrownBy(() -> client.readResource(new McpSchema.ReadResourceRequest("memory://project/nope")))
                .hasMessageContaining("No entry 'nope' in scope project.");

        JsonNode deleted = ok(client, "delete", Map.of("key", "issue:42"));
        assertThat(deleted.get("deleted").asBoolean()).isTrue();
        assertThat(error(client, "get", Map.of("key", "issue:42"))).isEqualTo("No entry 'issue:42' in scope project.");
    }

    private static String text(McpSchema.ReadResourceResult result) {
        return ((McpSchema.TextResourceContents) result.contents().get(0)).text();
    }
}
