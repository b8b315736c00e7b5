package dev.forge.memory.openai;

import dev.forge.memory.consolidation.Consolidation;
import dev.forge.memory.consolidation.ConsolidationReport;
import static dev.forge.memory.consolidation.ConsolidationTest.everything;
import static dev.forge.memory.consolidation.ConsolidationTest.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.consolidation.ConsolidationReport.Group;
import dev.forge.memory.consolidation.ConsolidationReport.Outcome;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.support.TimeSpan;
import dev.forge.memory.testing.Stores;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The LLM consolidator against a real HTTP server in this JVM speaking OpenAI's chat-completions protocol: a good answer
 * is applied; every kind of failure leaves the store exactly as it was.
 */
class OpenAiChatConsolidatorTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY = "sk-test-0123456789";

    private final MemoryProvider provider = Stores.inMemory(new Stores.Ticking());
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private HttpServer server;
    private volatile int status = 200;
    private volatile String body = "";
    private volatile boolean hang;
    private MemoryEntry old;
    private MemoryEntry newer;

    private record Request(String path, Headers headers, JsonNode body) {
    }

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/v1/chat/completions", this::answer);
        server.start();
        old = provider.set("old", "The API uses REST over HTTPS.", Scope.PROJECT, List.of("api"), Map.of());
        newer = provider.set("new", "API: REST, HTTPS only.", Scope.PROJECT, List.of("rest"), Map.of("source", "review"));
        provider.set("other", "Releases are tagged vX.Y.Z.", Scope.PROJECT);
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
        provider.close();
    }

    private void answer(HttpExchange exchange) throws IOException {
        requests.add(new Request(exchange.getRequestURI().getPath(), exchange.getRequestHeaders(),
                JSON.readTree(exchange.getRequestBody())));
        if (hang) {
            try {
                release.await(5, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** A chat-completions answer whose message is {@code content}. */
    private void reply(String content) {
        ObjectNode root = JSON.createObjectNode();
        root.put("id", "chatcmpl-1").put("object", "chat.completion").put("model", "test-chat");
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0).put("finish_reason", "stop");
        choice.putObject("message").put("role", "assistant").put("content", content);
        body = root.toString();
    }

    private String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    private OpenAiChatConsolidator consolidator(String timeout) {
        return OpenAiChatConsolidator.open(new OpenAiChatConsolidator.Settings(url(), "test-chat", KEY, null,
                TimeSpan.parse(timeout), null));
    }

    private ConsolidationReport run(OpenAiChatConsolidator consolidator) {
        try (consolidator) {
            return Consolidation.builder().provider(provider).threshold(0).consolidator(consolidator).build().run();
        }
    }

    private ConsolidationReport run() {
        return run(consolidator("5s"));
    }

    /** Runs, expects a rejection whose reason contains {@code why}, and checks the store is exactly as before. */
    private ConsolidationReport assertNothingChanged(String why) {
        List<MemoryEntry> before = everything(provider);
        ConsolidationReport report = run();
        assertThat(report.outcome()).isEqualTo(Outcome.REJECTED);
        assertThat(report.reason()).contains(why);
        assertThat(report.reason()).doesNotContain(KEY);
        assertThat(report.removed()).isEmpty();
        assertThat(everything(provider)).isEqualTo(before);
        for (MemoryEntry entry : before) {
            assertThat(provider.get(entry.key(), entry.scope())).contains(entry);
        }
        return report;
    }

    @Test
    void a_valid_answer_is_applied_and_the_request_speaks_the_chat_completions_protocol() {
        reply("{\"merges\": [{\"keep\": \"new\", \"keys\": [\"new\", \"old\"], \"value\": \"The API uses REST, HTTPS only.\"}]}");

        ConsolidationReport report = run();

        assertThat(report.outcome()).isEqualTo(Outcome.MERGED);
        assertThat(report.merged()).containsExactly(new Group(Scope.PROJECT, "new", List.of("old"), ""));
        MemoryEntry kept = provider.get("new", Scope.PROJECT).orElseThrow();
        assertThat(kept.value()).isEqualTo("The API uses REST, HTTPS only.");
        assertThat(kept.tags()).containsExactly("rest", "api");
        assertThat(kept.metadata()).isEqualTo(Map.of("source", "review",
                "supersedes", List.of(record(newer), record(old))));
        assertThat(provider.get("old", Scope.PROJECT)).isEmpty();
        assertThat(provider.get("other", Scope.PROJECT)).isPresent();

        assertThat(requests).hasSize(1);
        Request request = requests.get(0);
        assertThat(request.path()).isEqualTo("/v1/chat/completions");
        assertThat(request.headers().getFirst("Authorization")).isEqualTo("Bearer " + KEY);
        assertThat(request.body().get("model").asText()).isEqualTo("test-chat");
        assertThat(request.body().get("temperature").asInt()).isZero();
        assertThat(request.body().at("/response_format/type").asText()).isEqualTo("json_object");
        assertThat(request.body().at("/messages/0/role").asText()).isEqualTo("system");
        assertThat(request.body().at("/messages/0/content").asText()).isEqualTo(OpenAiChatConsolidator.INSTRUCTIONS);
        assertThat(request.body().at("/messages/1/role").asText()).isEqualTo("user");
        JsonNode memories = readTree(request.body().at("/messages/1/content").asText());
        assertThat(memories.findValuesAsText("key")).containsExactly("new", "old", "other");
        assertThat(memories.get(1).get("value").asText()).isEqualTo("The API uses REST over HTTPS.");
        assertThat(memories.get(1).get("tags").get(0).asText()).isEqualTo("api");
        assertThat(memories.get(1).get("updated_at").asText()).isEqualTo(old.updatedAt().toString());
    }

    private static JsonNode readTree(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void an_answer_in_a_markdown_code_fence_is_accepted() {
        reply("```json\n{\"merges\": [{\"keep\": \"new\", \"keys\": [\"old\", \"new\"], \"value\": \"REST, HTTPS only.\"}]}\n```");

        ConsolidationReport report = run();

        assertThat(report.outcome()).isEqualTo(Outcome.MERGED);
        assertThat(provider.get("new", Scope.PROJECT).orElseThrow().value()).isEqualTo("REST, HTTPS only.");
    }

    @Test
    void an_answer_that_is_not_the_json_asked_for_changes_nothing() {
        reply("Sure! 'new' and 'old' say the same thing, so merge them.");
        assertNothingChanged("answered with a message that is not the JSON asked for: Sure!");
        reply("{\"groups\": []}");
        assertNothingChanged("answered without a 'merges' list");
        reply("{\"merges\": [{\"keep\": \"new\", \"keys\": \"new, old\", \"value\": \"x\"}]}");
        assertNothingChanged("answered with a merge without a 'keep' key, a 'keys' list and a 'value' text");
        body = "<html>proxy login</html>";
        assertNothingChanged("answered with something that is not JSON: <html>proxy login</html>");
        body = "{\"choices\": []}";
        assertNothingChanged("answered without 'choices[0].message.content'");
    }

    @Test
    void an_http_error_changes_nothing_and_never_shows_the_key() {
        status = 500;
        body = "{\"error\": {\"message\": \"model crashed\"}}";
        assertNothingChanged("refused the request with HTTP 500: {\"error\": {\"message\": \"model crashed\"}}. Nothing was changed.");
        status = 401;
        body = "{\"error\": \"Incorrect API key " + KEY + "\"}";
        ConsolidationReport report = assertNothingChanged("HTTP 401");
        assertThat(report.reason()).contains("Incorrect API key ***").contains("Check 'api_key'");
    }

    @Test
    void a_timeout_changes_nothing() {
        hang = true;
        reply("{\"merges\": [{\"keep\": \"new\", \"keys\": [\"new\", \"old\"], \"value\": \"late\"}]}");
        List<MemoryEntry> before = everything(provider);

        ConsolidationReport report = run(consolidator("300ms"));

        assertThat(report.outcome()).isEqualTo(Outcome.REJECTED);
        assertThat(report.reason()).contains("gave no answer within 300ms");
        assertThat(everything(provider)).isEqualTo(before);
    }

    @Test
    void a_plan_naming_unknown_keys_changes_nothing() {
        reply("{\"merges\": [{\"keep\": \"new\", \"keys\": [\"new\", \"old\"], \"value\": \"REST\"},"
                + " {\"keep\": \"other\", \"keys\": [\"other\", \"invented\"], \"value\": \"x\"}]}");
        assertNothingChanged("names 'invented', which is not a memory of this scope");
    }

    @Test
    void an_unreachable_service_changes_nothing() throws IOException {
        server.stop(0);
        assertNothingChanged("could not be reached");
    }

    @Test
    void settings_are_checked_and_the_key_can_come_from_the_environment() {
        assertThatThrownBy(() -> OpenAiChatConsolidator.open(ProviderConfig.of(Map.of("url", url()))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("'model'");
        assertThatThrownBy(() -> OpenAiChatConsolidator.open(ProviderConfig.of(Map.of("model", "m", "modle", "x"))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("modle");
        assertThatThrownBy(() -> OpenAiChatConsolidator.Settings.of("http://user:pw@localhost/v1", "m"))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("credentials");
        OpenAiChatConsolidator.Settings settings = OpenAiChatConsolidator.open(ProviderConfig.of(Map.of("model", "m",
                "url", url() + "/", "timeout", "2s", "json_mode", false))).settings();
        assertThat(settings.url()).isEqualTo(url());
        assertThat(settings.apiKeyEnv()).isEqualTo("FORGE_CONSOLIDATION_API_KEY");
        assertThat(settings.jsonMode()).isFalse();
        assertThat(settings.toString()).doesNotContain(KEY);

        reply("{\"merges\": []}");
        try (OpenAiChatConsolidator fromEnv = new OpenAiChatConsolidator(settings,
                name -> name.equals("FORGE_CONSOLIDATION_API_KEY") ? "from-env" : null)) {
            assertThat(fromEnv.hasApiKey()).isTrue();
            assertThat(fromEnv.plan(everything(provider)).merges()).isEmpty();
        }
        try (OpenAiChatConsolidator none = new OpenAiChatConsolidator(settings, name -> null)) {
            assertThat(none.hasApiKey()).isFalse();
            none.plan(everything(provider));
        }
        assertThat(requests.get(0).headers().getFirst("Authorization")).isEqualTo("Bearer from-env");
        assertThat(requests.get(0).body().has("response_format")).isFalse();
        assertThat(requests.get(1).headers().containsKey("Authorization")).isFalse();
    }
}
