package dev.forge.memory.openai;

import dev.forge.memory.embedding.EmbeddingServiceException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.EmbeddingModels;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.forge.memory.spi.ProviderConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The openai model keeps the secrets of its settings out of everything it says and records: a {@code url} (with a
 * token in its path) and a {@code remote_model} that came from secret-looking variables, and the key. Against a real
 * HTTP server in this JVM that echoes every secret it receives back in its errors.
 */
class OpenAiEmbeddingSecretsTest {

    private static final String TOKEN = "tok-Distinctive-5a1f9e37c2";
    private static final String ROTATED = "tok-Rotated-88d0b4e61a";
    private static final String MODEL = "model-Distinctive-c39e07b2";
    private static final String KEY = "sk-Distinctive-3fe1a8c09d";
    private static final List<String> SECRETS = List.of(TOKEN, ROTATED, MODEL, KEY);

    /** How the service answers: vectors, a 401 echoing the request, or a 200 that is not JSON echoing it. */
    private enum Mode { VECTORS, REFUSE, NONSENSE }

    private HttpServer server;
    private volatile Mode mode = Mode.VECTORS;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::answer);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String echo = "path " + exchange.getRequestURI() + ", authorization "
                    + exchange.getRequestHeaders().getFirst("Authorization") + ", body " + request;
            String body = switch (mode) {
                case VECTORS -> "{\"data\":[{\"index\":0,\"embedding\":[1,2,3]}]}";
                case REFUSE -> "{\"error\":{\"message\":\"Incorrect API key or model: "
                        + echo.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}}";
                case NONSENSE -> "<html>" + echo + "</html>";
            };
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(mode == Mode.REFUSE ? 401 : 200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private String url(int port, String token) {
        return "http://127.0.0.1:" + port + "/" + token + "/v1";
    }

    /**
     * The model with {@code url} and {@code remoteModel}, each marked as coming from a secret variable when asked, as
     * config loading marks them.
     */
    private EmbeddingModel open(String url, String remoteModel, boolean urlSecret, boolean modelSecret) {
        Map<String, Object> block = new LinkedHashMap<>();
        block.put("model", "openai");
        block.put("url", url);
        block.put("remote_model", remoteModel);
        block.put("api_key", KEY);
        block.put("dimension", 3);
        block.put("max_retries", 0);
        block.put("timeout", "5s");
        Set<String> secretPaths = new HashSet<>();
        if (urlSecret) {
            secretPaths.add("memory.config.embedding.url");
        }
        if (modelSecret) {
            secretPaths.add("memory.config.embedding.remote_model");
        }
        return EmbeddingModels.load().open(ProviderConfig.of(block, "config.yaml", "memory.config.embedding")
                .withSecretPaths(secretPaths));
    }

    private EmbeddingModel openSecret(String token, String remoteModel) {
        return open(url(server.getAddress().getPort(), token), remoteModel, true, true);
    }

    private static String everything(Throwable error) {
        StringWriter out = new StringWriter();
        error.printStackTrace(new PrintWriter(out, true));
        return out + "\n" + (error instanceof EmbeddingServiceException e ? e.bodyExcerpt().orElse("") : "");
    }

    private static void assertNoSecret(String text) {
        for (String secret : SECRETS) {
            assertThat(text).doesNotContain(secret).doesNotContain(secret.substring(4, 18));
        }
    }

    @Test
    void the_values_of_secret_settings_are_listed_and_the_others_are_not() {
        ProviderConfig block = ProviderConfig.of(Map.of("url", "https://host/" + TOKEN, "remote_model", "plain-model",
                        "api_key", KEY, "nested", Map.of("password", "pw-12345", "port", "8080")), "config.yaml",
                "memory.config.embedding")
                .withSecretPaths(Set.of("memory.config.embedding.url"));
        assertThat(block.secretValues()).containsExactlyInAnyOrder("https://host/" + TOKEN, KEY, "pw-12345");
        assertThat(block.isSecret("url")).isTrue();
        assertThat(block.isSecret("api_key")).isTrue();
        assertThat(block.isSecret("remote_model")).isFalse();
    }

    @Test
    void an_unknown_model_named_by_a_secret_variable_is_refused_without_its_name() {
        ProviderConfig block = ProviderConfig.of(Map.of("model", MODEL), "config.yaml", "memory.config.embedding")
                .withSecretPaths(Set.of("memory.config.embedding.model"));
        Throwable refused = catchThrowable(() -> EmbeddingModels.load().open(block));
        assertThat(refused).isInstanceOf(dev.forge.memory.ConfigurationException.class)
                .hasMessageContaining("No embedding model named").hasMessageContaining("openai");
        assertNoSecret(everything(refused));
    }

    @Test
    void the_fingerprint_and_the_description_hold_no_secret_setting() {
        try (EmbeddingModel model = openSecret(TOKEN, MODEL)) {
            assertThat(model.embed("a text")).hasSize(3);
            assertNoSecret(model.fingerprint());
            assertNoSecret(model.toString());
            assertThat(model.fingerprint()).startsWith("openai:****:sha256=").endsWith(":3:l2");
        }
    }

    @Test
    void without_secrets_the_fingerprint_is_what_earlier_versions_recorded() {
        int port = server.getAddress().getPort();
        try (EmbeddingModel model = open("http://127.0.0.1:" + port + "/v1", "plain-model", false, false)) {
            assertThat(model.fingerprint()).isEqualTo("openai:127.0.0.1:" + port + "/v1:plain-model:3:l2");
        }
    }

    @Test
    void a_rotated_token_in_a_secret_url_is_the_same_model_and_another_remote_model_is_not() {
        try (EmbeddingModel model = openSecret(TOKEN, MODEL);
             EmbeddingModel rotated = openSecret(ROTATED, MODEL);
             EmbeddingModel other = openSecret(TOKEN, MODEL + "-v2");
             EmbeddingModel plainOther = open(url(server.getAddress().getPort(), TOKEN), "plain-v2", true, false)) {
            assertThat(rotated.fingerprint()).isEqualTo(model.fingerprint());
            assertThat(rotated.recognises(model.fingerprint())).isTrue();
            assertThat(other.fingerprint()).isNotEqualTo(model.fingerprint());
            assertThat(other.recognises(model.fingerprint())).isFalse();
            assertThat(plainOther.recognises(model.fingerprint())).isFalse();
            assertThat(model.recognises(plainOther.fingerprint())).isFalse();
            assertNoSecret(other.describe(model.fingerprint()));
        }
    }

    @Test
    void errors_of_a_refusing_an_unreachable_and_a_nonsensical_service_hold_no_secret() throws IOException {
        try (EmbeddingModel model = openSecret(TOKEN, MODEL)) {
            mode = Mode.REFUSE;
            Throwable refused = catchThrowable(() -> model.embed("a text"));
            assertThat(refused).isInstanceOf(EmbeddingServiceException.class).hasMessageContaining("401")
                    .hasMessageContaining("Incorrect API key");
            assertNoSecret(everything(refused));

            mode = Mode.NONSENSE;
            Throwable nonsense = catchThrowable(() -> model.embed("a text"));
            assertThat(nonsense).isInstanceOf(EmbeddingServiceException.class).hasMessageContaining("not JSON");
            assertNoSecret(everything(nonsense));
        }
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        try (EmbeddingModel unreachable = open(url(closed, TOKEN), MODEL, true, true)) {
            Throwable failed = catchThrowable(() -> unreachable.embed("a text"));
            assertThat(failed).isInstanceOf(EmbeddingServiceException.class).hasMessageContaining("failed 1 time");
            assertNoSecret(everything(failed));
        }
    }

    @Test
    void a_fingerprint_recorded_with_the_secrets_in_clear_is_recognised_and_shown_masked() {
        String recorded = "openai:127.0.0.1:" + server.getAddress().getPort() + "/" + TOKEN + "/v1:" + MODEL + ":3:l2";
        try (EmbeddingModel same = openSecret(TOKEN, MODEL);
             EmbeddingModel rotated = openSecret(ROTATED, MODEL);
             EmbeddingModel other = openSecret(ROTATED, MODEL + "-v2")) {
            assertThat(same.recognises(recorded)).isTrue();
            assertThat(rotated.recognises(recorded)).isTrue();
            assertThat(other.recognises(recorded)).isFalse();
            for (EmbeddingModel model : List.of(same, rotated, other)) {
                assertNoSecret(model.describe(recorded));
                assertThat(model.describe(recorded)).startsWith("openai:").endsWith(":3:l2");
            }
        }
    }
}
