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
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Starts {@code forge-memory mcp} in a child JVM (on the test class path unless told another) and connects the MCP
 * SDK's own client to it over stdio. Public, in memory-cli's test jar, for the tests of modules that drive the server
 * over other providers (memory-mcp-tests: graph against a real Neo4j).
 */
public final class McpServers {

    /** Reads the tools' JSON results. */
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private McpServers() {
    }

    /** The command line of a server for {@code project}, on this JVM's class path. */
    static List<String> command(Path project, Path temporary) {
        return command(System.getProperty("java.class.path"), project, temporary, List.of());
    }

    /**
     * The command line of a server for {@code project} on {@code classPath}, with {@code options} (global options such
     * as {@code --session ID}, and those of {@code mcp}) after {@code mcp}.
     */
    public static List<String> command(String classPath, Path project, Path temporary, List<String> options) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + temporary, "-cp", classPath, Main.class.getName(), "--project", project.toString(),
                "mcp"));
        command.addAll(options);
        return List.copyOf(command);
    }

    /** A connected, initialized client; {@code stderr} collects the server's stderr lines. */
    static McpSyncClient connect(Path project, Path forgeHome, Path temporary, List<String> stderr) {
        return connect(command(project, temporary), forgeHome, stderr);
    }

    /** A client connected to the server that {@code command} starts, initialized. */
    public static McpSyncClient connect(List<String> command, Path forgeHome, List<String> stderr) {
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
        try {
            client.initialize();
        } catch (RuntimeException e) {
            client.close();
            throw new AssertionError("The server did not initialize; its stderr: " + String.join("\n", stderr), e);
        }
        return client;
    }

    /** A list for {@link #connect}'s stderr lines, safe to fill from the transport's thread. */
    public static List<String> stderr() {
        return new CopyOnWriteArrayList<>();
    }

    /** Calls a tool and returns its result, whatever it is. */
    public static CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
        return client.callTool(new McpSchema.CallToolRequest(tool, arguments));
    }

    /** Calls a tool that must succeed and returns its JSON result. */
    public static JsonNode ok(McpSyncClient client, String tool, Map<String, Object> arguments) {
        CallToolResult result = call(client, tool, arguments);
        assertThat(result.isError()).as(tool + " " + arguments + ": " + text(result)).isFalse();
        try {
            return MAPPER.readTree(text(result));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Calls a tool that must fail and returns its one-line message. */
    public static String error(McpSyncClient client, String tool, Map<String, Object> arguments) {
        CallToolResult result = call(client, tool, arguments);
        assertThat(result.isError()).as(tool + " " + arguments + ": " + text(result)).isTrue();
        String message = text(result);
        assertThat(message).as("one line").doesNotContain("\n");
        return message;
    }

    /** The text of a tool result. */
    public static String text(CallToolResult result) {
        return ((TextContent) result.content().get(0)).text();
    }

    /** Reads stdout lines, each a JSON-RPC message, until the answer to request {@code id} is among them. */
    static void awaitAnswer(BlockingQueue<String> lines, List<JsonNode> messages, int id, Path err) throws Exception {
        while (messages.stream().noneMatch(m -> m.path("id").asInt(-1) == id)) {
            String line = lines.poll(5, TimeUnit.MINUTES);
            assertThat(line).as("a line on stdout; stderr: " + Files.readString(err)).isNotNull();
            JsonNode message = MAPPER.readTree(line);
            assertThat(message.path("jsonrpc").asText()).as(line).isEqualTo("2.0");
            messages.add(message);
        }
    }

    /** Writes one line to a raw server's stdin. */
    static void send(OutputStream in, String line) throws IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** The files under {@code directory} (a store's) holding {@code text}. */
    static List<Path> filesHolding(Path directory, String text) {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).filter(file -> read(file).contains(text)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
