package dev.forge.memory.openai;

import dev.forge.memory.embedding.EmbeddingServiceException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.EmbeddingModels;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.ProviderConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The openai model against a real HTTP server in this JVM that speaks the {@code /v1/embeddings} protocol. */
class OpenAiEmbeddingModelTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY = "sk-test-0123456789abcdef";

    private EmbeddingService service;

    @BeforeEach
    void start() throws IOException {
        service = new EmbeddingService();
    }

    @AfterEach
    void stop() {
        service.close();
    }

    private EmbeddingModel open(Map<String, ?> settings) {
        Map<String, Object> block = new HashMap<>();
        block.put("model", "openai");
        block.put("url", service.url());
        block.put("remote_model", "test-embed");
        block.put("dimension", 3);
        block.put("retry_backoff", "5ms");
        block.putAll(settings);
        return EmbeddingModels.load().open(ProviderConfig.of(block, "test.yaml", "embedding"));
    }

    /** What the service makes of a text before we normalise it: deterministic, not of unit length. */
    private static float[] raw(String text) {
        return new float[] {text.length(), text.chars().filter(c -> c == 'e').count() + 1, 2};
    }

    private static float[] unit(float[] v) {
        double norm = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        return new float[] {(float) (v[0] / norm), (float) (v[1] / norm), (float) (v[2] / norm)};
    }

    @Test
    void the_factory_is_registered_and_vectors_come_back_normalised_in_order() {
        assertThat(EmbeddingModels.load().names()).contains("openai", "hashing");
        try (EmbeddingModel model = open(Map.of())) {
            List<String> texts = List.of("one", "three three", "seventeen");
            List<float[]> vectors = model.embed(texts);
            assertThat(model.name()).isEqualTo("openai");
            assertThat(model.dimension()).isEqualTo(3);
            for (int i = 0; i < texts.size(); i++) {
                assertThat(vectors.get(i)).containsExactly(unit(raw(texts.get(i))), within(1e-6f));
            }
            JsonNode body = service.requests.get(0).body();
            assertThat(body.get("model").asText()).isEqualTo("test-embed");
            assertThat(body.get("encoding_format").asText()).isEqualTo("float");
            assertThat(service.requests.get(0).path()).isEqualTo("/v1/embeddings");
            assertThat(service.requests.get(0).headers().getFirst("Content-Type")).startsWith("application/json");
        }
    }

    @Test
    void texts_are_sent_in_batches_of_batch_size() {
        try (EmbeddingModel model = open(Map.of("batch_size", 2))) {
            List<String> texts = List.of("a", "bb", "ccc", "dddd", "eeeee");
            List<float[]> vectors = model.embed(texts);
            assertThat(service.requests).extracting(r -> r.body().get("input").size()).containsExactly(2, 2, 1);
            assertThat(service.requests.get(2).body().get("input").get(0).asText()).isEqualTo("eeeee");
            for (int i = 0; i < texts.size(); i++) {
                assertThat(vectors.get(i)).containsExactly(unit(raw(texts.get(i))), within(1e-6f));
            }
        }
    }

    @Test
    void results_are_put_in_the_order_of_their_index_not_of_the_response() {
        service.reverse = true;
        try (EmbeddingModel model = open(Map.of())) {
            List<String> texts = List.of("first", "second text", "the third and longest text");
            List<float[]> vectors = model.embed(texts);
            for (int i = 0; i < texts.size(); i++) {
                assertThat(vectors.get(i)).containsExactly(unit(raw(texts.get(i))), within(1e-6f));
            }
        }
    }

    @Test
    void empty_lists_send_nothing_and_blank_texts_get_the_zero_vector_without_being_sent() {
        try (EmbeddingModel model = open(Map.of())) {
            assertThat(model.embed(List.of())).isEmpty();
            assertThat(service.requests).isEmpty();
            List<float[]> vectors = model.embed(List.of("", "word", "   "));
            assertThat(vectors.get(0)).containsExactly(0f, 0f, 0f);
            assertThat(vectors.get(2)).containsExactly(0f, 0f, 0f);
            assertThat(vectors.get(1)).containsExactly(unit(raw("word")), within(1e-6f));
            assertThat(service.requests).hasSize(1);
            assertThat(service.requests.get(0).body().get("input")).hasSize(1);
        }
    }

    @Test
    void a_429_and_a_503_are_retried_honouring_retry_after_then_the_answer_is_used() {
        service.script.add(exchange -> respond(exchange, 429, "{\"error\":{\"message\":\"slow down\"}}", "Retry-After", "0"));
        service.script.add(exchange -> respond(exchange, 503, "overloaded"));
        try (EmbeddingModel model = open(Map.of("max_retries", 2))) {
            assertThat(model.embed("retried")).containsExactly(unit(raw("retried")), within(1e-6f));
            assertThat(service.requests).hasSize(3);
        }
    }

    @Test
    void the_client_gives_up_after_max_retries_with_the_last_status() {
        for (int i = 0; i < 10; i++) {
            service.script.add(exchange -> respond(exchange, 503, "{\"error\":\"busy\"}"));
        }
        try (EmbeddingModel model = open(Map.of("max_retries", 2))) {
            assertThatThrownBy(() -> model.embed("never")).isInstanceOf(BackendUnavailableException.class)
                    .isInstanceOf(EmbeddingServiceException.class)
                    .hasMessageContaining("failed 3 times").hasMessageContaining("HTTP 503").hasMessageContaining("busy")
                    .satisfies(e -> assertThat(((EmbeddingServiceException) e).status()).hasValue(503));
            assertThat(service.requests).hasSize(3);
        }
    }

    @Test
    void a_401_is_not_retried_and_the_key_goes_as_bearer_but_never_into_messages() {
        service.script.add(exchange -> respond(exchange, 401,
                "{\"error\":{\"message\":\"Incorrect API key provided: " + KEY + "\"}}"));
        try (EmbeddingModel model = open(Map.of("api_key", KEY, "max_retries", 3))) {
            assertThatThrownBy(() -> model.embed("secret")).isInstanceOf(EmbeddingServiceException.class)
                    .hasMessageContaining("401").hasMessageContaining("Incorrect API key").hasMessageContaining("api_key")
                    .satisfies(e -> {
                        EmbeddingServiceException error = (EmbeddingServiceException) e;
                        assertThat(error.getMessage()).doesNotContain(KEY);
                        assertThat(error.bodyExcerpt()).hasValueSatisfying(b -> assertThat(b).doesNotContain(KEY));
                        assertThat(error.status()).hasValue(401);
                    });
            assertThat(service.requests).hasSize(1);
            assertThat(service.requests.get(0).headers().getFirst("Authorization")).isEqualTo("Bearer " + KEY);
            assertThat(model.toString()).doesNotContain(KEY).contains("api_key=***");
        }
    }

    @Test
    void without_a_key_no_authorization_header_is_sent() {
        try (EmbeddingModel model = open(Map.of("api_key", ""))) {
            model.embed("open service");
            assertThat(service.requests.get(0).headers().containsKey("Authorization")).isFalse();
        }
    }

    @Test
    void a_response_that_is_not_json_or_not_an_embedding_response_is_a_typed_error_without_retry() {
        service.script.add(exchange -> respond(exchange, 200, "<html>proxy login</html>"));
        service.script.add(exchange -> respond(exchange, 200, "{\"object\":\"list\"}"));
        service.script.add(exchange -> respond(exchange, 200,
                "{\"data\":[{\"index\":0,\"embedding\":[1,2,3]},{\"index\":0,\"embedding\":[1,2,3]}]}"));
        try (EmbeddingModel model = open(Map.of())) {
            assertThatThrownBy(() -> model.embed("a")).isInstanceOf(EmbeddingServiceException.class)
                    .hasMessageContaining("not JSON").hasMessageContaining("proxy login");
            assertThatThrownBy(() -> model.embed("a")).isInstanceOf(EmbeddingServiceException.class)
                    .hasMessageContaining("'data'");
            assertThatThrownBy(() -> model.embed(List.of("a", "b"))).isInstanceOf(EmbeddingServiceException.class)
                    .hasMessageContaining("index 0 twice");
            assertThat(service.requests).hasSize(3);
        }
    }

    @Test
    void a_slow_service_times_out() {
        service.script.add(exchange -> {
            try {
                Thread.sleep(3_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            respond(exchange, 200, "{}");
        });
        try (EmbeddingModel model = open(Map.of("timeout", "200ms", "max_retries", 0))) {
            assertThatThrownBy(() -> model.embed("slow")).isInstanceOf(EmbeddingServiceException.class)
                    .hasMessageContaining("no response within 200ms")
                    .satisfies(e -> assertThat(((EmbeddingServiceException) e).status()).isEmpty());
        }
    }

    @Test
    void an_unreachable_service_is_backend_unavailable_after_the_retries() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        try (EmbeddingModel model = open(Map.of("url", "http://127.0.0.1:" + port + "/v1", "max_retries", 1))) {
            assertThatThrownBy(() -> model.embed("nobody home")).isInstanceOf(BackendUnavailableException.class)
                    .hasMessageContaining("failed 2 times").hasMessageContaining("127.0.0.1:" + port)
                    .hasMessageContaining("Is it running");
        }
    }

    @Test
    void vectors_of_another_dimension_than_configured_are_a_typed_error() {
        try (EmbeddingModel model = open(Map.of("dimension", 4))) {
            assertThatThrownBy(() -> model.embed("three components")).isInstanceOf(EmbeddingServiceException.class)
                    .hasMessageContaining("3 components").hasMessageContaining("'dimension' is 4");
        }
    }

    @Test
    void without_dimension_the_model_asks_the_service_once_and_builds_its_fingerprint() {
        Map<String, Object> settings = new HashMap<>();
        settings.put("url", service.url() + "/");
        try (EmbeddingModel model = openWithoutDimension(settings)) {
            assertThat(model.dimension()).isEqualTo(3);
            assertThat(service.requests).hasSize(1);
            assertThat(model.fingerprint()).isEqualTo("openai:127.0.0.1:" + service.port() + "/v1:test-embed:3:l2");
        }
        try (EmbeddingModel other = openWithoutDimension(Map.of("remote_model", "other-model"))) {
            assertThat(other.fingerprint()).isEqualTo("openai:127.0.0.1:" + service.port() + "/v1:other-model:3:l2");
        }
        try (EmbeddingModel model = openWithoutDimension(Map.of())) {
            service.script.add(exchange -> respond(exchange, 200,
                    "{\"data\":[{\"index\":0,\"embedding\":[1,2,3]},{\"index\":1,\"embedding\":[1,2]}]}"));
            assertThatThrownBy(() -> model.embed(List.of("a", "b"))).isInstanceOf(EmbeddingServiceException.class)
                    .hasMessageContaining("2 components, but 3 when the model was opened");
        }
        service.script.add(exchange -> respond(exchange, 500, "down"));
        assertThatThrownBy(() -> openWithoutDimension(Map.of("max_retries", 0)))
                .isInstanceOf(EmbeddingServiceException.class).hasMessageContaining("HTTP 500");
    }

    private EmbeddingModel openWithoutDimension(Map<String, ?> settings) {
        Map<String, Object> block = new HashMap<>();
        block.put("model", "openai");
        block.put("url", service.url());
        block.put("remote_model", "test-embed");
        block.putAll(settings);
        return EmbeddingModels.load().open(ProviderConfig.of(block));
    }

    @Test
    void redirects_are_not_followed() {
        service.script.add(exchange -> respond(exchange, 307, "", "Location", "http://elsewhere.invalid/v1/embeddings"));
        try (EmbeddingModel model = open(Map.of("api_key", KEY))) {
            assertThatThrownBy(() -> model.embed("x")).isInstanceOf(EmbeddingServiceException.class)
                    .hasMessageContaining("307").hasMessageContaining("Redirects are not followed");
            assertThat(service.requests).hasSize(1);
        }
    }

    @Test
    void a_wrong_path_is_a_404_with_a_hint_and_no_retry() {
        try (EmbeddingModel model = open(Map.of("url", "http://127.0.0.1:" + service.port(), "max_retries", 3))) {
            assertThatThrownBy(() -> model.embed("x")).isInstanceOf(EmbeddingServiceException.class)
                    .hasMessageContaining("404").hasMessageContaining("/v1");
        }
    }

    @Test
    void encoding_format_can_be_left_out_and_base64_vectors_are_read() {
        service.script.add(exchange -> {
            ByteBuffer bytes = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putFloat(3).putFloat(0).putFloat(4);
            respond(exchange, 200, "{\"data\":[{\"index\":0,\"embedding\":\""
                    + Base64.getEncoder().encodeToString(bytes.array()) + "\"}]}");
        });
        try (EmbeddingModel model = open(Map.of("send_encoding_format", false))) {
            assertThat(model.embed("b64")).containsExactly(0.6f, 0f, 0.8f);
            assertThat(service.requests.get(0).body().has("encoding_format")).isFalse();
        }
    }

    @Test
    void concurrent_calls_each_get_their_own_vectors() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (EmbeddingModel model = open(Map.of("batch_size", 3))) {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    for (int round = 0; round < 10; round++) {
                        List<String> texts = List.of("t" + thread + "r" + round, "e".repeat(thread + round + 1), "x");
                        List<float[]> vectors = model.embed(texts);
                        for (int i = 0; i < texts.size(); i++) {
                            assertThat(vectors.get(i)).containsExactly(unit(raw(texts.get(i))), within(1e-6f));
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertThat(result.get(1, TimeUnit.MINUTES)).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void closing_stops_the_client_threads() throws InterruptedException {
        EmbeddingModel model = open(Map.of());
        model.embed(List.of("one", "two"));
        model.close();
        for (int i = 0; i < 100 && !clientThreads().isEmpty(); i++) {
            Thread.sleep(20); // shutdownNow interrupts them; give them a moment to end
        }
        assertThat(clientThreads()).isEmpty();
    }

    private static List<String> clientThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(name -> name.startsWith("forge-openai-embeddings-")).toList();
    }

    @Test
    void a_closed_model_refuses_to_embed() {
        EmbeddingModel model = open(Map.of());
        model.close();
        model.close();
        assertThatThrownBy(() -> model.embed("late")).isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void bad_settings_are_configuration_errors_naming_the_key() {
        assertThatThrownBy(() -> open(Map.of("remote_model", " "))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("remote_model");
        assertThatThrownBy(() -> open(Map.of("model_name", "x"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'embedding.model_name'").hasMessageContaining("remote_model")
                .hasMessageContaining("max_retries");
        assertThatThrownBy(() -> open(Map.of("url", "ftp://example.com/v1"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'url'").hasMessageContaining("http or https");
        assertThatThrownBy(() -> open(Map.of("url", "https://user:" + KEY + "@example.com/v1")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("credentials")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(KEY));
        assertThatThrownBy(() -> open(Map.of("timeout", "soon"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("timeout");
        assertThatThrownBy(() -> open(Map.of("max_retries", -1))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("max_retries");
        assertThatThrownBy(() -> open(Map.of("batch_size", 0))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("batch_size");
        assertThatThrownBy(() -> open(Map.of("dimension", 0))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("dimension");
        assertThat(service.requests).isEmpty();
    }

    private static void respond(HttpExchange exchange, int status, String body, String... headers) throws IOException {
        for (int i = 0; i + 1 < headers.length; i += 2) {
            exchange.getResponseHeaders().add(headers[i], headers[i + 1]);
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** One recorded request. */
    record Recorded(String path, Headers headers, JsonNode body) {
    }

    /** A scripted reply. */
    interface Reply {
        void send(HttpExchange exchange) throws IOException;
    }

    /**
     * An OpenAI-compatible embedding endpoint at {@code /v1/embeddings}: answers each request with the next scripted
     * reply, or, when none is left, with the vectors {@link #raw} makes.
     */
    static final class EmbeddingService implements AutoCloseable {
        final List<Recorded> requests = new CopyOnWriteArrayList<>();
        final Queue<Reply> script = new ConcurrentLinkedQueue<>();
        volatile boolean reverse;
        private final HttpServer server;
        private final ExecutorService pool = Executors.newFixedThreadPool(4);

        EmbeddingService() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setExecutor(pool);
            server.createContext("/v1/embeddings", exchange -> {
                try (exchange) {
                    JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
                    requests.add(new Recorded(exchange.getRequestURI().getPath(), exchange.getRequestHeaders(), body));
                    Reply reply = script.poll();
                    if (reply != null) {
                        reply.send(exchange);
                    } else {
                        respond(exchange, 200, embeddings(body));
                    }
                }
            });
            server.start();
        }

        int port() {
            return server.getAddress().getPort();
        }

        String url() {
            return "http://127.0.0.1:" + port() + "/v1";
        }

        private String embeddings(JsonNode request) {
            ObjectNode response = JSON.createObjectNode();
            response.put("object", "list");
            ArrayNode data = response.putArray("data");
            JsonNode input = request.get("input");
            for (int k = 0; k < input.size(); k++) {
                int i = reverse ? input.size() - 1 - k : k;
                ObjectNode item = data.addObject();
                item.put("object", "embedding");
                item.put("index", i);
                ArrayNode embedding = item.putArray("embedding");
                for (float component : raw(input.get(i).asText())) {
                    embedding.add(component);
                }
            }
            response.put("model", request.get("model").asText());
            return response.toString();
        }

        @Override
        public void close() {
            server.stop(0);
            pool.shutdownNow();
        }
    }
}
