package dev.forge.memory.benchmarks.mcp;

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
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * An MCP server process (ours or the official one) and the MCP Java SDK's own synchronous client connected to it over
 * stdio, as an agent's client connects: the same client code drives both sides of every server-to-server pair.
 * Starting the process and the {@code initialize} handshake happen in {@link #start}, never inside a timed call.
 */
public final class McpStdioClient implements AutoCloseable {

    /** How many of the server's last stderr lines an error message quotes. */
    private static final int STDERR_LINES = 20;

    private final McpSyncClient client;
    private final Deque<String> stderr;
    private final String name;

    private McpStdioClient(McpSyncClient client, Deque<String> stderr, String name) {
        this.client = client;
        this.stderr = stderr;
        this.name = name;
    }

    /**
     * The command line of {@code forge-memory --project PROJECT mcp ARGS...}: the command's {@code Main} in a child JVM
     * on this JVM's class path (the benchmarks jar holds the command and every bundled provider).
     */
    public static List<String> forgeMemoryMcp(Path project, String... args) {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.forge.memory.cli.Main",
                "--project", project.toString(), "mcp"));
        command.addAll(List.of(args));
        return command;
    }

    /** The command line of the official MCP memory server run by {@code node}. */
    public static List<String> official(McpMemoryServer.Found installation) {
        return List.of(installation.node().toString(), installation.script().toString());
    }

    /**
     * Starts {@code command} with {@code environment} added to this process's environment, connects the SDK's client
     * and completes the handshake.
     *
     * @param name what to call the server in error messages
     * @throws IllegalStateException if the server does not start or does not answer {@code initialize}
     */
    public static McpStdioClient start(String name, List<String> command, Map<String, String> environment) {
        ServerParameters parameters = ServerParameters.builder(command.get(0)).args(command.subList(1, command.size()))
                .env(environment).build();
        StdioClientTransport transport = new StdioClientTransport(parameters,
                new JacksonMcpJsonMapper(new ObjectMapper()));
        Deque<String> stderr = new ArrayDeque<>();
        transport.setStdErrorHandler(line -> {
            synchronized (stderr) {
                stderr.addLast(line);
                if (stderr.size() > STDERR_LINES) {
                    stderr.removeFirst();
                }
            }
        });
        // Long timeouts: loading the embedding model, or the official server reading a large graph, is not an error.
        McpSyncClient client = McpClient.sync(transport)
                .requestTimeout(Duration.ofMinutes(5))
                .initializationTimeout(Duration.ofMinutes(5))
                .jsonSchemaValidator(new SchemaValidator())
                .build();
        McpStdioClient started = new McpStdioClient(client, stderr, name);
        try {
            client.initialize();
        } catch (RuntimeException e) {
            started.close();
            throw new IllegalStateException(name + " did not start: " + e.getMessage() + started.stderrTail(), e);
        }
        return started;
    }

    /**
     * Calls a tool that must succeed.
     *
     * @return the text of its first content block
     * @throws IllegalStateException if the tool reports an error
     */
    public String call(String tool, Map<String, Object> arguments) {
        CallToolResult result = client.callTool(new McpSchema.CallToolRequest(tool, arguments));
        String text = result.content().isEmpty() || !(result.content().get(0) instanceof TextContent content) ? ""
                : content.text();
        if (Boolean.TRUE.equals(result.isError())) {
            throw new IllegalStateException(name + " answered " + tool + " " + arguments + " with an error: " + text
                    + stderrTail());
        }
        return text;
    }

    private String stderrTail() {
        synchronized (stderr) {
            return stderr.isEmpty() ? "" : " (its stderr ends with: " + String.join(" | ", stderr) + ")";
        }
    }

    /** Closes the session: the client closes the server's stdin and waits for the process to end. */
    @Override
    public void close() {
        client.closeGracefully();
    }
}
