package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stdio channel of {@code forge-memory mcp} byte for byte, without an SDK in between: stdout holds only JSON-RPC
 * messages, a line that is not one gets a parse error and the session goes on, and the server exits 0 when its input
 * ends.
 */
class McpStdioTest {

    @TempDir
    Path root;

    @Test
    void stdout_carries_only_the_protocol_and_a_bad_line_does_not_end_the_session() throws Exception {
        Path project = Files.createDirectories(root.resolve("project"));
        Files.writeString(Files.createDirectories(project.resolve(".forge")).resolve("config.yaml"),
                "memory:\n  provider: sqlite\n");
        Path err = root.resolve("stderr");
        ProcessBuilder builder = new ProcessBuilder(McpServers.command(project, Files.createDirectories(root.resolve("tmp"))))
                .redirectError(err.toFile());
        builder.environment().put("FORGE_HOME", Files.createDirectories(root.resolve("forge-home")).toString());
        builder.environment().remove("FORGE_MEMORY_PROVIDER");
        Process server = builder.start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
                in.lines().forEach(lines::add);
            } catch (java.io.IOException e) {
                lines.add("read failed: " + e);
            }
        });
        reader.start();

        OutputStream in = server.getOutputStream();
        List<JsonNode> messages = new ArrayList<>();
        // Requests are answered concurrently, as JSON-RPC allows: each waits for its answer before the next is sent.
        McpServers.send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
        McpServers.awaitAnswer(lines, messages, 1, err);
        McpServers.send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        McpServers.send(in, "this is not json");
        McpServers.send(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"set\",\"arguments\":"
                + "{\"key\":\"k\",\"value\":\"v\"}}}");
        McpServers.awaitAnswer(lines, messages, 2, err);
        McpServers.send(in, "{}");
        McpServers.send(in, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"get\",\"arguments\":"
                + "{\"key\":\"k\"}}}");
        McpServers.awaitAnswer(lines, messages, 3, err);
        in.close();
        assertThat(server.waitFor(5, TimeUnit.MINUTES)).as("the server ends with its input").isTrue();
        reader.join();
        assertThat(server.exitValue()).isZero();
        for (String rest : lines) {
            assertThat(McpServers.MAPPER.readTree(rest).path("jsonrpc").asText()).as(rest).isEqualTo("2.0");
        }

        assertThat(messages).filteredOn(m -> m.path("error").path("code").asInt() == -32700).hasSize(2);
        JsonNode got = messages.stream().filter(m -> m.path("id").asInt() == 3).findFirst().orElseThrow();
        assertThat(got.path("result").path("isError").asBoolean()).isFalse();
        assertThat(got.path("result").path("structuredContent").path("value").asText()).isEqualTo("v");
        assertThat(Files.readString(err)).contains("Skipped a line that is not a JSON-RPC message");
    }

    @Test
    void requests_piped_in_at_once_are_all_answered_before_the_server_exits() throws Exception {
        Path project = Files.createDirectories(root.resolve("project"));
        Path requests = root.resolve("requests.jsonl");
        Files.writeString(requests, String.join("\n",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"pipe\",\"version\":\"1\"}}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                "not json either",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"set\",\"arguments\":"
                        + "{\"key\":\"a\",\"value\":\"first\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"set\",\"arguments\":"
                        + "{\"key\":\"b\",\"value\":\"second\"}}}") + "\n");
        Path out = root.resolve("stdout");
        ProcessBuilder builder = new ProcessBuilder(McpServers.command(project, Files.createDirectories(root.resolve("tmp"))))
                .redirectInput(requests.toFile()).redirectOutput(out.toFile()).redirectError(root.resolve("stderr").toFile());
        builder.environment().put("FORGE_HOME", Files.createDirectories(root.resolve("forge-home")).toString());
        builder.environment().remove("FORGE_MEMORY_PROVIDER");
        Process server = builder.start();

        assertThat(server.waitFor(5, TimeUnit.MINUTES)).as("the server ends with its input").isTrue();
        assertThat(server.exitValue()).isZero();
        List<JsonNode> messages = new ArrayList<>();
        for (String line : Files.readAllLines(out)) {
            messages.add(McpServers.MAPPER.readTree(line));
        }
        assertThat(messages).extracting(m -> m.path("id").asInt(0)).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        assertThat(messages).filteredOn(m -> m.path("id").asInt(0) >= 3)
                .allSatisfy(m -> assertThat(m.path("result").path("isError").asBoolean()).isFalse());
    }
}
