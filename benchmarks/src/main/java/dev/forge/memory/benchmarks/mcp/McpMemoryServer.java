package dev.forge.memory.benchmarks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The official MCP memory server ({@code @modelcontextprotocol/server-memory}) run by {@code node} as a child process
 * and driven over stdio with JSON-RPC 2.0, one message a line: {@code initialize}, {@code notifications/initialized},
 * then one {@code tools/call} per write, each waiting for its answer. The server's package is installed beforehand
 * by {@code npm ci --prefix benchmarks/mcp}; nothing is downloaded here.
 */
public final class McpMemoryServer implements AutoCloseable {

    /** The system property naming the {@code node} executable; by default {@code node} is looked up on the PATH. */
    public static final String NODE_PROPERTY = "forge.bench.node";

    /** The system property naming the npm project the server is installed in; default {@code benchmarks/mcp}. */
    public static final String PACKAGE_PROPERTY = "forge.bench.mcp.dir";

    /** The environment variable naming the server's graph file. */
    public static final String MEMORY_FILE_VARIABLE = "MEMORY_FILE_PATH";

    /** The protocol version sent in {@code initialize}. */
    public static final String PROTOCOL_VERSION = "2025-06-18";

    private static final String SERVER_SCRIPT = "node_modules/@modelcontextprotocol/server-memory/dist/index.js";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final BufferedWriter requests;
    private final BufferedReader responses;
    private final Path log;
    private long nextId = 1;

    private McpMemoryServer(Process process, Path log) {
        this.process = process;
        this.log = log;
        this.requests = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        this.responses = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Where the installed server is, or why it cannot run. */
    public sealed interface Installation {
    }

    /**
     * The server can run.
     *
     * @param node   the node executable
     * @param script the server's entry point
     */
    public record Found(Path node, Path script) implements Installation {
    }

    /**
     * The server cannot run here.
     *
     * @param reason why, and what to do
     */
    public record Missing(String reason) implements Installation {
    }

    /** Finds {@code node} and the installed server package. */
    public static Installation locate() {
        Optional<Path> node = Optional.ofNullable(System.getProperty(NODE_PROPERTY)).map(Path::of)
                .or(McpMemoryServer::nodeOnPath);
        if (node.isEmpty() || !Files.isExecutable(node.get())) {
            return new Missing("node is not installed (not on the PATH, and -D" + NODE_PROPERTY + " not set): "
                    + "install Node.js 20 or later to compare with the MCP memory server");
        }
        Path project = Path.of(System.getProperty(PACKAGE_PROPERTY, "benchmarks/mcp")).toAbsolutePath();
        Path script = project.resolve(SERVER_SCRIPT);
        if (!Files.isRegularFile(script)) {
            return new Missing("@modelcontextprotocol/server-memory is not installed in " + project
                    + ": run 'npm ci --prefix benchmarks/mcp' first (bin/bench does)");
        }
        return new Found(node.get(), script);
    }

    private static Optional<Path> nodeOnPath() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String directory : path.split(java.io.File.pathSeparator)) {
            if (directory.isEmpty()) {
                continue;
            }
            for (String name : List.of("node", "node.exe")) {
                Path candidate = Path.of(directory, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Starts the server with its graph in {@code memoryFile} (env {@code MEMORY_FILE_PATH}) and completes the
     * initialization handshake. Its stderr goes to {@code memoryFile} with {@code .log} appended.
     *
     * @throws IOException if it cannot start or does not answer {@code initialize}
     */
    public static McpMemoryServer start(Found installation, Path memoryFile) throws IOException {
        Path log = memoryFile.resolveSibling(memoryFile.getFileName() + ".log");
        ProcessBuilder builder = new ProcessBuilder(installation.node().toString(), installation.script().toString())
                .redirectError(log.toFile());
        builder.environment().put(MEMORY_FILE_VARIABLE, memoryFile.toAbsolutePath().toString());
        McpMemoryServer server = new McpMemoryServer(builder.start(), log);
        try {
            ObjectNode params = JSON.createObjectNode().put("protocolVersion", PROTOCOL_VERSION);
            params.putObject("capabilities");
            params.putObject("clientInfo").put("name", "forge-memory-bench").put("version", "1");
            server.call("initialize", params);
            ObjectNode initialized = JSON.createObjectNode().put("jsonrpc", "2.0")
                    .put("method", "notifications/initialized");
            server.send(initialized);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * Creates one entity with one observation, as an agent stores one memory: {@code create_entities} with a
     * single entity.
     *
     * @return the tool's result
     * @throws IOException if the server fails, answers with an error, or the tool reports an error
     */
    public JsonNode createEntity(String name, String entityType, String observation) throws IOException {
        ObjectNode params = JSON.createObjectNode().put("name", "create_entities");
        ObjectNode entity = params.putObject("arguments").putArray("entities").addObject();
        entity.put("name", name).put("entityType", entityType).putArray("observations").add(observation);
        JsonNode result = call("tools/call", params);
        if (result.path("isError").asBoolean(false)) {
            throw new IOException("create_entities of " + name + " failed: " + result.path("content"));
        }
        return result;
    }

    private JsonNode call(String method, ObjectNode params) throws IOException {
        long id = nextId++;
        ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        request.set("params", params);
        send(request);
        while (true) {
            String line = responses.readLine();
            if (line == null) {
                throw new IOException("The MCP memory server exited during " + method + ": " + logTail());
            }
            JsonNode message = JSON.readTree(line);
            if (!message.has("id") || message.get("id").asLong() != id || message.has("method")) {
                continue; // a notification or a request of the server's own
            }
            if (message.has("error")) {
                throw new IOException("The MCP memory server answered " + method + " with " + message.get("error"));
            }
            return message.path("result");
        }
    }

    private void send(ObjectNode message) throws IOException {
        requests.write(JSON.writeValueAsString(message));
        requests.write('\n');
        requests.flush();
    }

    private String logTail() {
        try {
            String text = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8).strip() : "";
            return text.isEmpty() ? "(nothing on stderr)" : text.substring(Math.max(0, text.length() - 2000));
        } catch (IOException e) {
            return "(its log " + log + " cannot be read: " + e + ")";
        }
    }

    /** Closes the server's stdin (the stdio transport's end of session) and waits for it to exit, else kills it. */
    @Override
    public void close() {
        try {
            requests.close();
        } catch (IOException e) {
            // The process is gone already; it is waited for below.
        }
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
