package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.forge.memory.mcp.SchemaValidator;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Starts {@code forge-memory mcp} in a child JVM on the test class path and connects the MCP SDK's own client to it
 * over stdio.
 */
final class McpServers {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private McpServers() {
    }

    /** The command line of a server for {@code project}. */
    static List<String> command(Path project, Path temporary) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + temporary, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "--project", project.toString(), "mcp");
    }

    /** A connected, initialized client; {@code stderr} collects the server's stderr lines. */
    static McpSyncClient connect(Path project, Path forgeHome, Path temporary, List<String> stderr) {
        return connect(command(project, temporary), forgeHome, stderr);
    }

    /** A client connected to the server that {@code command} starts, initialized. */
    static McpSyncClient connect(List<String> command, Path forgeHome, List<String> stderr) {
        ServerParameters parameters = ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size()))
                .env(Map.of("FORGE_HOME", forgeHome.toString()))
                .build();
        StdioClientTransport transport = new StdioClientTransport(parameters, new JacksonMcpJsonMapper(new ObjectMapper()));
        transport.setStdErrorHandler(stderr::add);
        McpSyncClient client = McpClient.sync(transport)
                .requestTimeout(Duration.ofSeconds(120))
                .initializationTimeout(Duration.ofSeconds(120))
                .jsonSchemaValidator(new SchemaValidator())
                .build();
        client.initialize();
        return client;
    }

    static List<String> stderr() {
        return new CopyOnWriteArrayList<>();
    }

    /** Calls a tool and returns its result, whatever it is. */
    static CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
        return client.callTool(new McpSchema.CallToolRequest(tool, arguments));
    }

    /** Calls a tool that must succeed and returns its JSON result. */
    static JsonNode ok(McpSyncClient client, String tool, Map<String, Object> arguments) {
        CallToolResult result = call(client, tool, arguments);
        assertThat(result.isError()).as(tool + " " + arguments + ": " + text(result)).isFalse();
        try {
            return MAPPER.readTree(text(result));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Calls a tool that must fail and returns its one-line message. */
    static String error(McpSyncClient client, String tool, Map<String, Object> arguments) {
        CallToolResult result = call(client, tool, arguments);
        assertThat(result.isError()).as(tool + " " + arguments + ": " + text(result)).isTrue();
        String message = text(result);
        assertThat(message).as("one line").doesNotContain("\n");
        return message;
    }

    static String text(CallToolResult result) {
        return ((TextContent) result.content().get(0)).text();
    }
}
