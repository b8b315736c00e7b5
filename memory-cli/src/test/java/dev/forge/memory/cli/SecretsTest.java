package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets from {@code ${VARIABLE}}s in the config (an OpenAI api key, a database password) never reach the output of
 * any command, its error messages, or the log (slf4j-simple writes to {@code System.err}, captured here): not from
 * {@code config}, {@code config --json}, {@code doctor}, nor from a failing connection, a service that echoes the
 * key back in its error, or a setting that rejects the value.
 */
@Tag("reliability") // Reliability.TAG: memory-cli does not depend on conformance-tests
class SecretsTest {

    private static final String API_KEY = "sk-forge-Distinctive-7f3a9c51e2";
    private static final String PASSWORD = "pw-forge-Distinctive-0b84d6";

    private CliHarness cli;
    private final List<String> seen = new ArrayList<>();

    @BeforeEach
    void setUp(@TempDir Path root) {
        cli = new CliHarness(root);
        cli.env.put("OPENAI_API_KEY", API_KEY);
        cli.env.put("DB_PASSWORD", PASSWORD);
    }

    /** Runs a command with {@code System.err} (the log) captured; keeps everything it printed or logged. */
    private CliHarness.Result run(String... args) {
        PrintStream original = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        CliHarness.Result result;
        try {
            result = cli.run(args);
        } finally {
            System.setErr(original);
        }
        String logged = log.toString(StandardCharsets.UTF_8);
        seen.add(String.join(" ", args) + "\n" + result + "--- log\n" + logged);
        return result;
    }

    private void assertNoSecretSeen() {
        assertThat(seen).isNotEmpty().allSatisfy(text -> assertThat(text).doesNotContain(API_KEY).doesNotContain(PASSWORD)
                .doesNotContain(API_KEY.substring(3, 20)).doesNotContain(PASSWORD.substring(3, 20)));
    }

    private void embeddingAt(String url) {
        cli.projectConfig("""
                memory:
                  provider: vector
                  config:
                    embedding:
                      model: openai
                      url: %s
                      remote_model: test-model
                      api_key: ${OPENAI_API_KEY}
                      dimension: 8
                      max_retries: 0
                      timeout: 5s
                """.formatted(url));
    }

    private void commandsThatTouchTheService() {
        run("config");
        run("config", "--json");
        CliHarness.Result set = run("set", "k", "a value");
        assertThat(set.exitCode()).as(set.toString()).isNotZero();
        run("--json", "set", "k", "a value");
        run("search", "a value");
        run("get", "k");
        run("doctor");
        run("--json", "doctor");
    }

    @Test
    void an_api_key_is_not_shown_when_the_service_cannot_be_reached() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        embeddingAt("http://127.0.0.1:" + closed + "/v1");
        commandsThatTouchTheService();
        assertThat(seen.get(2)).contains("127.0.0.1:" + closed);
        assertNoSecretSeen();
    }

    @Test
    void an_api_key_is_not_shown_when_the_service_echoes_it_in_an_error() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String authorization = String.valueOf(exchange.getRequestHeaders().getFirst("Authorization"));
            byte[] body = ("{\"error\":{\"message\":\"Incorrect API key provided: " + authorization.replace("Bearer ", "")
                    + ". You can find your API key at https://example.org.\",\"type\":\"invalid_request_error\"}}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            embeddingAt("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
            commandsThatTouchTheService();
        } finally {
            server.stop(0);
        }
        assertThat(seen.get(2)).contains("401").contains("Incorrect API key provided");
        assertNoSecretSeen();
    }

    @Test
    void a_secret_under_an_innocent_setting_is_not_echoed_when_the_setting_rejects_it() {
        cli.projectConfig("""
                memory:
                  provider: sqlite
                  config:
                    busy_timeout: ${DB_PASSWORD}
                """);
        run("config");
        run("config", "--json");
        CliHarness.Result set = run("set", "k", "a value");
        assertThat(set.exitCode()).as(set.toString()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(set.err()).contains("busy_timeout");
        run("--json", "set", "k", "a value");
        run("doctor");
        assertNoSecretSeen();
    }

    @Test
    void an_exported_file_is_private_to_its_owner() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(cli.root.getFileSystem().supportedFileAttributeViews().contains("posix"));
        cli.projectConfig("memory:\n  provider: file\n");
        assertThat(run("set", "k", "a private note").exitCode()).isZero();
        Path file = cli.root.resolve("export.jsonl");
        CliHarness.Result exported = run("export", "--out", file.toString(), "--no-progress");
        assertThat(exported.exitCode()).as(exported.toString()).isZero();
        assertThat(java.nio.file.Files.readString(file)).contains("a private note");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
    }
}
