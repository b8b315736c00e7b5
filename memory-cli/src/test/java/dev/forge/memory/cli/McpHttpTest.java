package dev.forge.memory.cli;

import static dev.forge.memory.cli.McpServers.error;
import static dev.forge.memory.cli.McpServers.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.forge.memory.mcp.SchemaValidator;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code forge-memory mcp --http} in a real child process: the SDK's streamable HTTP client with the bearer token is
 * served on 127.0.0.1, a request without it gets 401, and the server stops on SIGTERM.
 */
class McpHttpTest {

    private static final Pattern SERVING = Pattern.compile("Serving MCP on (http://127\\.0\\.0\\.1:\\d+)/mcp with the bearer token( \\S+ )?");

    @TempDir
    Path root;

    private final List<Process> servers = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        for (Process server : servers) {
            server.destroy();
            assertThat(server.waitFor(5, TimeUnit.MINUTES)).as("the server stops on SIGTERM").isTrue();
        }
    }

    /** Starts a server over sqlite and returns the matched "Serving MCP on ..." line. */
    private Matcher start(String token) throws Exception {
        return start(token, "memory:\n  provider: sqlite\n");
    }

    /** Starts a server with the project config {@code config} and returns the matched "Serving MCP on ..." line. */
    private Matcher start(String token, String config) throws Exception {
        Path project = Files.createDirectories(root.resolve("project"));
        Files.writeString(Files.createDirectories(project.resolve(".forge")).resolve("config.yaml"), config);
        List<String> command = new ArrayList<>(McpServers.command(project, Files.createDirectories(root.resolve("tmp"))));
        command.addAll(List.of("--http", "--port", "0"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(root.resolve("stdout").toFile());
        builder.environment().put("FORGE_HOME", Files.createDirectories(root.resolve("forge-home")).toString());
        builder.environment().remove("FORGE_MEMORY_PROVIDER");
        builder.environment().remove(McpCommand.TOKEN_VARIABLE);
        if (token != null) {
            builder.environment().put(McpCommand.TOKEN_VARIABLE, token);
        }
        Process server = builder.start();
        servers.add(server);
        server.getOutputStream().close();
        BlockingQueue<String> stderr = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> new BufferedReader(new InputStreamReader(server.getErrorStream(),
                StandardCharsets.UTF_8)).lines().forEach(stderr::add));
        reader.setDaemon(true);
        reader.start();
        List<String> seen = new ArrayList<>();
        while (true) {
            String line = stderr.poll(5, TimeUnit.MINUTES);
            assertThat(line).as("the server's stderr so far: " + seen).isNotNull();
            seen.add(line);
            Matcher matcher = SERVING.matcher(line);
            if (matcher.find()) {
                return matcher;
            }
        }
    }

    private static McpSyncClient client(String base, String token) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(base)
                .endpoint("/mcp")
                .jsonMapper(new JacksonMcpJsonMapper(new ObjectMapper()))
                .httpRequestCustomizer((request, method, uri, body, context) -> request.header("Authorization", "Bearer " + token))
                .build();
        McpSyncClient client = McpClient.sync(transport)
                .requestTimeout(Duration.ofSeconds(120))
                .jsonSchemaValidator(new SchemaValidator())
                .build();
        client.initialize();
        return client;
    }

    @Test
    void a_client_with_the_token_is_served_and_a_request_without_it_is_refused() throws Exception {
        String base = start("the-token-of-this-test").group(1);

        HttpResponse<String> refused = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/mcp"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.body()).contains("Authorization: Bearer TOKEN");

        try (McpSyncClient client = client(base, "the-token-of-this-test")) {
            assertThat(client.listTools().tools()).hasSize(9);
            ok(client, "set", Map.of("key", "over-http", "value", "stored over streamable HTTP"));
            assertThat(ok(client, "get", Map.of("key", "over-http")).get("value").asText())
                    .isEqualTo("stored over streamable HTTP");
            assertThat(error(client, "get", Map.of("key", "nope"))).isEqualTo("No entry 'nope' in scope project.");
            assertThat(ok(client, "search", Map.of("text", "streamable")).get("hits")).hasSize(1);
        }
        assertThat(Files.readString(root.resolve("stdout"))).as("stdout of an HTTP server").isEmpty();
    }

    @Test
    void the_clients_share_the_servers_session_which_ends_when_the_server_stops() throws Exception {
        String base = start("the-token-of-this-test", "memory:\n  provider: markdown\n").group(1);
        Path store = root.resolve("project/.forge/memory");
        String scratch = "Half-way through the migration of the users table.";

        try (McpSyncClient writer = client(base, "the-token-of-this-test")) {
            ok(writer, "set", Map.of("key", "current_task", "value", scratch, "scope", "session"));
        }
        try (McpSyncClient reader = client(base, "the-token-of-this-test")) {
            assertThat(ok(reader, "get", Map.of("key", "current_task", "scope", "session")).get("value").asText())
                    .as("a client's session ended; the server's goes on").isEqualTo(scratch);
        }
        assertThat(McpServers.filesHolding(store, scratch)).isNotEmpty();

        Process server = servers.remove(0);
        server.destroy();

        assertThat(server.waitFor(5, TimeUnit.MINUTES)).as("the server stops on SIGTERM").isTrue();
        assertThat(McpServers.filesHolding(store, scratch)).as("files of the server's ended session").isEmpty();
    }

    @Test
    void without_a_token_in_the_environment_one_is_generated_and_printed() throws Exception {
        Matcher serving = start(null);
        String token = serving.group(2).strip();

        assertThat(token).hasSizeGreaterThanOrEqualTo(40);
        try (McpSyncClient client = client(serving.group(1), token)) {
            assertThat(client.listTools().tools()).hasSize(9);
        }
    }

    @Test
    void a_port_without_http_is_a_usage_error() {
        CliHarness cli = new CliHarness(root);

        assertThat(cli.fails(ExitCodes.USAGE, "mcp", "--port", "9000").err())
                .isEqualTo("forge-memory: --port only goes with --http.\n");
        assertThat(cli.fails(ExitCodes.USAGE, "mcp", "--http", "--port", "70000").err())
                .isEqualTo("forge-memory: --port must be from 0 to 65535; got 70000.\n");
    }
}
