package dev.forge.memory.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.inmemory.InMemoryMemoryProviderFactory;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The call layer of the server on a real in-memory store: results, tool errors, and more tools beside the native ones. */
class MemoryMcpServerTest {

    /** A clock a minute further on at each reading, so that every write has its own time. */
    private static final class Ticking extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        @Override
        public synchronized Instant instant() {
            now = now.plusSeconds(60);
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    private final MemoryProvider provider = new InMemoryMemoryProviderFactory().open(ProviderContext.builder()
            .projectId("p").sessionId("s").clock(new Ticking()).registry(ProviderRegistry.of()).build());

    @AfterEach
    void close() {
        provider.close();
    }

    private static McpTool tool(MemoryMcpServer server, String name) {
        return server.tools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    private static String text(CallToolResult result) {
        return ((TextContent) result.content().get(0)).text();
    }

    @Test
    void a_result_is_json_text_and_structured_content() {
        MemoryMcpServer server = MemoryMcpServer.builder(provider).build();

        CallToolResult result = server.call(tool(server, "set"), Map.of("key", "k", "value", "v", "tags", List.of("a")));

        assertThat(result.isError()).isFalse();
        assertThat(text(result)).contains("\"key\":\"k\"").contains("\"version\":1");
        assertThat(result.structuredContent()).isInstanceOf(Map.class);
    }

    @Test
    void arguments_of_the_wrong_type_are_a_tool_error_naming_the_argument() {
        MemoryMcpServer server = MemoryMcpServer.builder(provider).build();

        CallToolResult result = server.call(tool(server, "query"), Map.of("limit", "ten"));

        assertThat(result.isError()).isTrue();
        assertThat(text(result)).isEqualTo("query: The 'limit' argument must be a whole number; got a string.");
        assertThat(text(server.call(tool(server, "query"), Map.of("cursor", "x"))))
                .startsWith("query: The cursor 'x' is not one this tool returned");
    }

    @Test
    void query_orders_by_the_names_of_the_api_and_refuses_others_naming_them() {
        MemoryMcpServer server = MemoryMcpServer.builder(provider).build();
        server.call(tool(server, "set"), Map.of("key", "a", "value", "older"));
        server.call(tool(server, "set"), Map.of("key", "b", "value", "newer"));

        assertThat(text(server.call(tool(server, "query"), Map.of("order", "updated_desc"))))
                .matches(".*\"key\":\"b\".*\"key\":\"a\".*");
        assertThat(text(server.call(tool(server, "query"), Map.of("order", "key"))))
                .matches(".*\"key\":\"a\".*\"key\":\"b\".*");
        assertThat(text(server.call(tool(server, "query"), Map.of("order", "newest"))))
                .isEqualTo("query: The 'order' argument must be one of key, key_desc, updated_desc, updated_asc; got 'newest'.");
    }

    @Test
    void a_provider_failure_is_a_tool_error_with_its_message() {
        MemoryMcpServer server = MemoryMcpServer.builder(provider).build();
        provider.close();

        CallToolResult result = server.call(tool(server, "get"), Map.of("key", "k"));

        assertThat(result.isError()).isTrue();
        assertThat(text(result)).isEqualTo("This in-memory provider is closed; open a new one.");
    }

    @Test
    void an_unexpected_exception_is_a_tool_error_too() {
        McpTool broken = new McpTool("broken", "Fails.", JsonSchemas.object().build(), args -> {
            throw new IllegalStateException("a bug");
        });
        MemoryMcpServer server = MemoryMcpServer.builder(provider).tools(List.of(broken)).build();

        CallToolResult result = server.call(broken, Map.of());

        assertThat(result.isError()).isTrue();
        assertThat(text(result)).startsWith("The broken call failed: java.lang.IllegalStateException: a bug.");
    }

    @Test
    void another_set_of_tools_is_served_beside_the_native_ones_under_unique_names() {
        McpTool extra = new McpTool("read_graph", "Reads.", JsonSchemas.object().build(), args -> Map.of("ok", true));

        assertThat(MemoryMcpServer.builder(provider).tools(List.of(extra)).build().tools()).extracting(McpTool::name)
                .containsExactly("set", "get", "query", "search", "delete", "relate", "traverse", "history", "context",
                        "read_graph");
        McpTool clash = new McpTool("get", "Clashes.", JsonSchemas.object().build(), args -> Map.of());
        assertThatThrownBy(() -> MemoryMcpServer.builder(provider).tools(List.of(clash)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("Two tools are named 'get'.");
        assertThat(MemoryMcpServer.builder(provider).nativeTools(false).tools(List.of(clash)).build().tools())
                .extracting(McpTool::name).containsExactly("get");
        assertThatThrownBy(() -> MemoryMcpServer.builder(provider).nativeTools(false).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("A server needs at least one tool.");
    }

    @Test
    void the_schema_validator_reports_unknown_and_out_of_range_arguments() {
        MemoryMcpServer server = MemoryMcpServer.builder(provider).build();
        SchemaValidator validator = new SchemaValidator();

        var response = validator.validate(tool(server, "query").inputSchema(), Map.of("limt", 5, "limit", 500));

        assertThat(response.valid()).isFalse();
        assertThat(response.errorMessage()).contains("limt").contains("100");
        assertThat(validator.validate(tool(server, "query").inputSchema(), Map.of("limit", 5)).valid()).isTrue();
    }
}
