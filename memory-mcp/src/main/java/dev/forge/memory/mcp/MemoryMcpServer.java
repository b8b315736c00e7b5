package dev.forge.memory.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryProvider;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An MCP server over one open provider: its tools ({@link MemoryTools} unless others are given) and its memories as
 * resources. The caller opens the provider once, serves, and closes it after {@link #serveStdio} returns. A failing
 * call is a tool result with {@code isError: true} and the exception's message, never the end of the session.
 */
public final class MemoryMcpServer {

    private static final Logger LOG = LoggerFactory.getLogger(MemoryMcpServer.class);

    private final MemoryProvider provider;
    private final List<McpTool> tools;
    private final String version;
    private final ObjectMapper mapper = new ObjectMapper();
    private final McpJsonMapper jsonMapper = new JacksonMcpJsonMapper(mapper);
    /** The input {@link #serveStdio} reads while it runs, for {@link #stopStdio}. */
    private volatile StdioInput stdio;
    private volatile boolean stopRequested;

    private MemoryMcpServer(Builder builder) {
        this.provider = builder.provider;
        this.tools = List.copyOf(builder.tools());
        this.version = builder.version;
    }

    /** A server over {@code provider}, with the native tools. */
    public static Builder builder(MemoryProvider provider) {
        return new Builder(provider);
    }

    /** The tools this server serves, in the order {@code tools/list} gives them. */
    public List<McpTool> tools() {
        return tools;
    }

    /**
     * Serves one client over a pair of streams (the process's stdin and stdout) until the input ends and the requests
     * read are answered. Only protocol messages are written to {@code out}; a line that is not a JSON-RPC message gets
     * a parse error and is skipped.
     */
    public void serveStdio(InputStream in, OutputStream out) {
        StdioOutput output = new StdioOutput(out);
        StdioInput input = new StdioInput(in, output, jsonMapper);
        McpSyncServer server = configure(McpServer.sync(new StdioServerTransportProvider(jsonMapper, input, output)));
        LOG.info("Serving provider '{}' over stdio with {} tools.", provider.name(), tools.size());
        stdio = input;
        // Read after stdio is set, as stopStdio sets the flag before it reads stdio: one of the two sees the other.
        if (stopRequested) {
            input.end();
        }
        try {
            input.awaitEnd();
        } finally {
            stdio = null;
            server.closeGracefully();
        }
    }

    /**
     * Makes {@link #serveStdio} return as if its input had ended, from another thread: a shutdown hook's (SIGTERM,
     * which MCP clients send after closing the server's stdin), so that its caller still closes the provider. Once
     * called, a later {@link #serveStdio} returns at once.
     */
    public void stopStdio() {
        stopRequested = true;
        StdioInput input = stdio;
        if (input != null) {
            input.end();
        }
    }

    /**
     * Serves clients over streamable HTTP on the loopback address until the returned endpoint is closed. Every
     * request must carry {@code Authorization: Bearer TOKEN}.
     *
     * @param port  the port, 0 for any free one ({@link McpHttpEndpoint#uri()} tells which)
     * @param token the bearer token clients must send
     */
    public McpHttpEndpoint serveHttp(int port, String token) {
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(jsonMapper)
                .mcpEndpoint(McpHttpEndpoint.PATH)
                .build();
        McpSyncServer server = configure(McpServer.sync(transport));
        McpHttpEndpoint endpoint = McpHttpEndpoint.start(transport, server, port, token);
        LOG.info("Serving provider '{}' on {} with {} tools.", provider.name(), endpoint.uri(), tools.size());
        return endpoint;
    }

    /** The server info, instructions, tools and resources, the same on every transport. */
    private <S extends McpServer.SyncSpecification<S>> McpSyncServer configure(McpServer.SyncSpecification<S> specification) {
        return specification
                .serverInfo("forge-memory", version)
                .instructions("Long-term memory of this project (provider '" + provider.name() + "'). At the start of a "
                        + "task call context; store what is worth keeping with set; find it again with search or query.")
                .jsonMapper(jsonMapper)
                .jsonSchemaValidator(new SchemaValidator())
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).build())
                .tools(tools.stream().map(this::specification).toList())
                .resources(resources().indexes())
                .resourceTemplates(resources().templates())
                .build();
    }

    private MemoryResources resources() {
        return new MemoryResources(provider, this::json);
    }

    private SyncToolSpecification specification(McpTool tool) {
        McpSchema.Tool described = McpSchema.Tool.builder()
                .name(tool.name())
                .description(tool.description())
                .inputSchema(tool.inputSchema())
                .build();
        return new SyncToolSpecification(described, (exchange, request) -> call(tool, request.arguments()));
    }

    /** Runs one call; every failure becomes a tool error the model can read. */
    CallToolResult call(McpTool tool, Map<String, Object> arguments) {
        Object result;
        try {
            result = tool.handler().apply(new ToolArguments(tool.name(), arguments));
        } catch (MemoryException e) {
            LOG.debug("{} failed", tool.name(), e);
            return error(e.getMessage());
        } catch (RuntimeException e) {
            // Not one of the API's typed errors: a bug or a backend failure nobody translated. Logged with its trace
            // on stderr; the client still gets one line and the session goes on.
            LOG.warn("{} failed unexpectedly", tool.name(), e);
            return error("The " + tool.name() + " call failed: " + e + ". The server is still running; the log on "
                    + "its stderr has the details.");
        }
        CallToolResult.Builder builder = CallToolResult.builder().addTextContent(json(result)).isError(false);
        if (result instanceof Map) {
            builder.structuredContent(result);
        }
        return builder.build();
    }

    private static CallToolResult error(String message) {
        String oneLine = message == null ? "The call failed." : message.strip().replaceAll("\\s*\\R\\s*", " ");
        return CallToolResult.builder().addTextContent(oneLine).isError(true).build();
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Builds a server. */
    public static final class Builder {

        private final MemoryProvider provider;
        private final List<McpTool> added = new ArrayList<>();
        private boolean nativeTools = true;
        private String version = "development";

        private Builder(MemoryProvider provider) {
            this.provider = Objects.requireNonNull(provider, "provider");
        }

        /**
         * Whether the server offers the native tools ({@link MemoryTools}); true by default. Off for a server that
         * offers only the tools added with {@link #tools}, such as the official memory server's
         * ({@link KnowledgeGraphTools}).
         */
        public Builder nativeTools(boolean on) {
            this.nativeTools = on;
            return this;
        }

        /** Adds tools beside the native ones; {@link #build} refuses two tools of one name. */
        public Builder tools(List<McpTool> more) {
            added.addAll(more);
            return this;
        }

        /** The version the server reports in {@code initialize}. */
        public Builder version(String version) {
            this.version = Objects.requireNonNull(version, "version");
            return this;
        }

        /**
         * The server; nothing runs until {@link #serveStdio}.
         *
         * @throws IllegalArgumentException if two tools have one name, or there is no tool at all
         */
        public MemoryMcpServer build() {
            return new MemoryMcpServer(this);
        }

        private List<McpTool> tools() {
            List<McpTool> all = new ArrayList<>(nativeTools ? MemoryTools.of(provider) : List.of());
            all.addAll(added);
            Set<String> names = new HashSet<>();
            for (McpTool tool : all) {
                if (!names.add(tool.name())) {
                    throw new IllegalArgumentException("Two tools are named '" + tool.name() + "'.");
                }
            }
            if (all.isEmpty()) {
                throw new IllegalArgumentException("A server needs at least one tool.");
            }
            return all;
        }
    }
}
