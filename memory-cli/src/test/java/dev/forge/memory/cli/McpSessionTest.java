package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
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
 * SESSION memories at the end of an MCP session, on a real {@code forge-memory mcp} process over a markdown store
 * whose files the test reads: seed 004 clears SESSION "when session ends". Unnamed, the server's session is its own
 * and its SESSION memories are removed when its client closes stdin or stops it with SIGTERM; a session named with
 * {@code --session} or {@code $FORGE_SESSION_ID} outlives the server, as the command line's does across calls.
 */
class McpSessionTest {

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
    private static final String SCRATCH = "Working on the login form; the test data is in fixtures/users.json.";
    private static final String DECISION = "Sessions expire after 30 minutes of inactivity.";

    @TempDir
    Path root;

    private CliHarness cli;

    private static String set(int id, String key, String value, String scope) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"set\",\"arguments\":"
                + "{\"key\":\"" + key + "\",\"value\":\"" + value + "\",\"scope\":\"" + scope + "\"}}}";
    }

    private Path project() {
        cli = new CliHarness(root);
        cli.projectConfig("memory:\n  provider: markdown\n");
        return cli.project;
    }

    private ProcessBuilder server(Path project, List<String> options) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(McpServers.command(System.getProperty("java.class.path"), project,
                Files.createDirectories(root.resolve("tmp")), options))
                .redirectError(root.resolve("stderr").toFile());
        builder.environment().put("FORGE_HOME", cli.forgeHome.toString());
        builder.environment().remove("FORGE_MEMORY_PROVIDER");
        builder.environment().remove(ForgeMemoryCommand.SESSION_VARIABLE);
        return builder;
    }

    /** The files of the project's store holding {@code text}. */
    private List<Path> filesHolding(String text) {
        return McpServers.filesHolding(cli.project.resolve(".forge/memory"), text);
    }

    /** Pipes {@code requests} into a server, which exits once its input ends; returns its answers. */
    private List<JsonNode> pipe(List<String> options, String... requests) throws Exception {
        Path input = Files.writeString(root.resolve("requests.jsonl"), String.join("\n", requests) + "\n");
        Path out = root.resolve("stdout");
        Process server = server(project(), options).redirectInput(input.toFile()).redirectOutput(out.toFile()).start();
        assertThat(server.waitFor(5, TimeUnit.MINUTES)).as("the server ends with its input").isTrue();
        assertThat(server.exitValue()).as(Files.readString(root.resolve("stderr"))).isZero();
        List<JsonNode> answers = new ArrayList<>();
        for (String line : Files.readAllLines(out)) {
            answers.add(McpServers.MAPPER.readTree(line));
        }
        assertThat(answers).filteredOn(m -> m.path("id").asInt(0) >= 2).hasSize(requests.length - 2)
                .allSatisfy(m -> assertThat(m.path("result").path("isError").asBoolean()).as(m.toString()).isFalse());
        return answers;
    }

    @Test
    void an_unnamed_session_is_removed_when_the_client_closes_stdin() throws Exception {
        List<JsonNode> answers = pipe(List.of(), INITIALIZE, INITIALIZED, set(2, "current_task", SCRATCH, "session"),
                set(3, "decision:timeout", DECISION, "project"));

        assertThat(answers).filteredOn(m -> m.path("id").asInt() == 2).singleElement()
                .satisfies(m -> assertThat(m.path("result").path("structuredContent").path("scope").asText())
                        .isEqualTo("session"));
        assertThat(filesHolding(SCRATCH)).as("files of the ended session").isEmpty();
        assertThat(filesHolding(DECISION)).isNotEmpty();
        assertThat(cli.ok("get", "decision:timeout").out()).contains(DECISION);
    }

    @Test
    void an_unnamed_session_is_removed_when_the_client_stops_the_server_with_sigterm() throws Exception {
        Process server = server(project(), List.of()).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> new BufferedReader(new InputStreamReader(server.getInputStream(),
                StandardCharsets.UTF_8)).lines().forEach(lines::add));
        reader.setDaemon(true);
        reader.start();
        OutputStream in = server.getOutputStream();
        List<JsonNode> answers = new ArrayList<>();
        Path err = root.resolve("stderr");
        McpServers.send(in, INITIALIZE);
        McpServers.awaitAnswer(lines, answers, 1, err);
        McpServers.send(in, INITIALIZED);
        McpServers.send(in, set(2, "current_task", SCRATCH, "session"));
        McpServers.awaitAnswer(lines, answers, 2, err);
        assertThat(filesHolding(SCRATCH)).as("the live session's files").isNotEmpty();

        server.destroy();

        assertThat(server.waitFor(5, TimeUnit.MINUTES)).as("the server stops on SIGTERM").isTrue();
        assertThat(filesHolding(SCRATCH)).as("files of the ended session; stderr: " + Files.readString(err)).isEmpty();
        in.close();
    }

    @Test
    void a_named_session_outlives_the_server_for_later_calls() throws Exception {
        pipe(List.of("--session", "login-work"), INITIALIZE, INITIALIZED, set(2, "current_task", SCRATCH, "session"));

        assertThat(filesHolding(SCRATCH)).isNotEmpty();
        assertThat(cli.ok("--session", "login-work", "get", "--scope", "session", "current_task").out()).contains(SCRATCH);
    }
}
