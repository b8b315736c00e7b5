package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.HashingEmbeddingModelFactory;
import dev.forge.memory.spi.ProviderConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets from {@code ${VARIABLE}}s in the config (an OpenAI api key, a database password, a token in the embedding
 * service's URL, the remote model's name) never reach the output of any command, its error messages, the log
 * (slf4j-simple writes to {@code System.err}, captured here) or a file of the store: not from {@code config},
 * {@code config --json}, {@code doctor}, {@code reindex}, nor from a failing connection, a service that echoes the key,
 * the URL and the model back in its error, a model mismatch after a change, or a setting that rejects the value. A
 * rotated token in the URL keeps the index.
 */
@Tag("reliability") // Reliability.TAG: memory-cli does not depend on conformance-tests
class SecretsTest {

    private static final String API_KEY = "sk-forge-Distinctive-7f3a9c51e2";
    private static final String PASSWORD = "pw-forge-Distinctive-0b84d6";
    private static final String TOKEN = "tok-forge-Distinctive-5a1f9e37";
    private static final String ROTATED = "tok-forge-Rotated-88d0b4e61a";
    private static final String MODEL = "model-forge-Distinctive-c39e07";
    private static final String OTHER_MODEL = "model-forge-Other-74b1e9d05f";
    private static final List<String> SECRETS = List.of(API_KEY, PASSWORD, TOKEN, ROTATED, MODEL, OTHER_MODEL);

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
        assertThat(seen).isNotEmpty().allSatisfy(text -> {
            for (String secret : SECRETS) {
                assertThat(text).doesNotContain(secret).doesNotContain(secret.substring(3, 20));
            }
        });
    }

    /** Every file of the project (the config file, the index), read as bytes, kept as seen. */
    private void readEveryFile() throws IOException {
        try (Stream<Path> files = Files.walk(cli.project)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                seen.add("file " + file + "\n" + new String(Files.readAllBytes(file),
                        StandardCharsets.ISO_8859_1));
            }
        }
    }

    private void embeddingAt(String url) {
        embedding(url, "test-model", 8);
    }

    /** A vector store whose openai model has this {@code url} and {@code remote_model} (YAML), and the secret key. */
    private void embedding(String url, String remoteModel, int dimension) {
        cli.projectConfig("""
                memory:
                  provider: vector
                  config:
                    embedding:
                      model: openai
                      url: %s
                      remote_model: %s
                      api_key: ${OPENAI_API_KEY}
                      dimension: %d
                      max_retries: 0
                      timeout: 5s
                """.formatted(url, remoteModel, dimension));
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

    /**
     * An embedding service under any base path that answers with the hashing model's vectors of 16 dimensions, or, when
     * {@code refusing}, with a 401 echoing the request's path, key and body (the remote model's name).
     */
    private HttpServer embeddingService(AtomicBoolean refusing) throws IOException {
        EmbeddingModel hashing = new HashingEmbeddingModelFactory()
                .open(ProviderConfig.of(Map.of("dimension", 16)));
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            JsonNode request = Json.MAPPER.readTree(exchange.getRequestBody());
            String body;
            int status = 200;
            if (refusing.get()) {
                status = 401;
                body = Json.MAPPER.writeValueAsString(Map.of("error", Map.of("message",
                        "Incorrect API key or model: " + exchange.getRequestURI() + " "
                                + exchange.getRequestHeaders().getFirst("Authorization") + " " + request)));
            } else {
                List<Object> data = new ArrayList<>();
                for (int i = 0; i < request.get("input").size(); i++) {
                    data.add(Map.of("index", i, "embedding", hashing.embed(request.get("input").get(i).asText())));
                }
                body = Json.MAPPER.writeValueAsString(Map.of("data", data));
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return server;
    }

    /** The embedding model's url and remote model from secret variables: a token in the URL's path, a secret name. */
    private void secretUrlAndModel(int port) {
        cli.env.put("EMBEDDINGS_TOKEN", TOKEN);
        cli.env.put("EMBEDDINGS_MODEL_SECRET", MODEL);
        embedding("\"http://127.0.0.1:" + port + "/${EMBEDDINGS_TOKEN}/v1\"", "${EMBEDDINGS_MODEL_SECRET}", 16);
    }

    @Test
    void a_secret_url_and_remote_model_reach_no_output_no_file_of_the_index_and_a_rotated_token_keeps_the_index()
            throws IOException {
        AtomicBoolean refusing = new AtomicBoolean();
        HttpServer server = embeddingService(refusing);
        int port = server.getAddress().getPort();
        try {
            secretUrlAndModel(port);
            run("config");
            run("config", "--json");
            assertThat(run("set", "deploy", "Deploy the service to production on Fridays never").exitCode()).isZero();
            assertThat(run("set", "cache", "The cache expires entries after ten minutes").exitCode()).isZero();
            assertThat(run("search", "The cache expires entries after ten minutes").out()).contains("cache");
            run("get", "cache");
            assertThat(run("doctor").exitCode()).isZero();
            run("--json", "doctor");
            CliHarness.Result reindexed = run("reindex", "--no-progress");
            assertThat(reindexed.exitCode()).as(reindexed.toString()).isZero();
            assertThat(run("--json", "reindex", "--no-progress").exitCode()).isZero();
            readEveryFile();

            // a rotated token is the same model: the index opens as it is and finds what it held
            cli.env.put("EMBEDDINGS_TOKEN", ROTATED);
            CliHarness.Result found = run("search", "The cache expires entries after ten minutes");
            assertThat(found.exitCode()).as(found.toString()).isZero();
            assertThat(found.out()).contains("cache");
            assertThat(run("doctor").exitCode()).isZero();
            assertThat(run("set", "after", "Written after the rotation").exitCode()).isZero();
            readEveryFile();

            // another remote model is refused until a reindex, saying so without a secret
            cli.env.put("EMBEDDINGS_MODEL_SECRET", OTHER_MODEL);
            CliHarness.Result refused = run("search", "The cache expires");
            assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCodes.CONFIGURATION);
            assertThat(refused.err()).contains("forge-memory reindex");
            run("--verbose", "search", "The cache expires");
            run("doctor");

            // a service that refuses, echoing the path, the key and the model back
            cli.env.put("EMBEDDINGS_MODEL_SECRET", MODEL);
            refusing.set(true);
            CliHarness.Result echoed = run("set", "k", "a value");
            assertThat(echoed.exitCode()).as(echoed.toString()).isNotZero();
            assertThat(echoed.err()).contains("401").contains("Incorrect API key");
            run("--verbose", "set", "k", "a value");
            run("--json", "search", "a value");
        } finally {
            server.stop(0);
        }
        // and one that cannot be reached
        run("set", "k", "a value");
        run("--verbose", "set", "k", "a value");
        readEveryFile();
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
