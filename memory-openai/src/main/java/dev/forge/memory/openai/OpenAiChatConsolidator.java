package dev.forge.memory.openai;

import dev.forge.memory.consolidation.ConsolidationServiceException;
import dev.forge.memory.consolidation.ConsolidationPlan;
import dev.forge.memory.consolidation.Consolidator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.openai.internal.OpenAiHttp;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.support.TimeSpan;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consolidator that asks a language model, over any service speaking OpenAI's {@code POST /v1/chat/completions}
 * (OpenAI, Ollama, vLLM, LM Studio, llama.cpp's server...), which memories say the same thing and how to word the
 * merged memory.
 *
 * <pre>{@code
 * consolidation:
 *   url: http://localhost:11434/v1        # base URL; requests go to <url>/chat/completions; default https://api.openai.com/v1
 *   model: llama3.1                       # the service's model name (required)
 *   api_key: "${OPENAI_API_KEY}"          # optional; else read from the variable named by api_key_env
 *   api_key_env: FORGE_CONSOLIDATION_API_KEY   # default
 *   timeout: 60s                          # connect and response timeout of the one request
 *   json_mode: true                       # send "response_format": {"type": "json_object"}
 * }</pre>
 *
 * <p>One request per scope, without retries: a failed run changes nothing and can simply be run again. The model
 * gets the memories as JSON ({@code key}, {@code value}, {@code tags}, {@code updated_at}) and must answer with
 * {@code {"merges": [{"keep": "<key>", "keys": ["<key>", ...], "value": "<merged text>"}]}}, optionally inside a
 * markdown code fence. Anything else (an HTTP error, a timeout, text that is not that JSON) throws
 * {@link ConsolidationServiceException}, which {@link dev.forge.memory.consolidation.Consolidation} reports as a rejected run; a plan naming keys that
 * do not exist is rejected there too. Redirects are not followed, so the key never goes to another host.
 */
public final class OpenAiChatConsolidator implements Consolidator, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OpenAiChatConsolidator.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the model is told to do. */
    static final String INSTRUCTIONS = """
            You consolidate the long-term memories of a software agent. You get a JSON array of memories, each with \
            a key, a value, tags and updated_at. Find groups of memories that say the same thing (duplicates or near \
            duplicates, not merely related ones). For each group, keep the key of its most recently updated memory and \
            write one value that holds every fact of the group, without inventing any. Answer with JSON only, in this \
            form: {"merges": [{"keep": "<key kept>", "keys": ["<every key of the group, the kept one included>"], \
            "value": "<merged value>"}]}. Every key must be one of the given keys and may appear in one group only. \
            If nothing should be merged, answer {"merges": []}.""";

    private final Settings settings;
    private final String apiKey;
    private final URI endpoint;
    private final String where;
    private final HttpClient client;

    OpenAiChatConsolidator(Settings settings, UnaryOperator<String> environment) {
        this.settings = Objects.requireNonNull(settings, "settings");
        String key = settings.apiKey() != null ? settings.apiKey() : environment.apply(settings.apiKeyEnv());
        this.apiKey = key == null || key.isBlank() ? null : key.strip();
        this.endpoint = URI.create(settings.url() + "/chat/completions");
        this.where = OpenAiHttp.where(settings.url());
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(settings.timeout().duration())
                .build();
    }

    /** A consolidator with these settings; the key comes from {@code api_key} or the environment variable. */
    public static OpenAiChatConsolidator open(Settings settings) {
        return new OpenAiChatConsolidator(settings, System::getenv);
    }

    /**
     * A consolidator from a config block (see the class comment).
     *
     * @throws ConfigurationException for an unknown setting or a bad value
     */
    public static OpenAiChatConsolidator open(ProviderConfig config) {
        return open(config.bind(Settings.class));
    }

    /**
     * Asks the model once.
     *
     * @throws ConsolidationServiceException if the service refuses, times out, cannot be reached, or answers with
     *                                       something that is not a plan
     */
    @Override
    public ConsolidationPlan plan(List<MemoryEntry> entries) {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .timeout(settings.timeout().duration())
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .header("User-Agent", "forge-memory")
                .POST(HttpRequest.BodyPublishers.ofString(body(entries), StandardCharsets.UTF_8));
        if (apiKey != null) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        HttpResponse<String> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpConnectTimeoutException e) {
            throw failed("could not be reached within " + settings.timeout(), -1, null, e);
        } catch (HttpTimeoutException e) {
            throw failed("gave no answer within " + settings.timeout() + " (raise 'timeout' for slow models)", -1, null, e);
        } catch (IOException e) {
            throw failed("could not be reached: " + e, -1, null, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendUnavailableException("Interrupted while waiting for the consolidation model at " + where + ".", e);
        }
        int status = response.statusCode();
        String excerpt = OpenAiHttp.excerpt(response.body(), apiKey);
        if (status < 200 || status >= 300) {
            throw failed("refused the request with HTTP " + status + (excerpt.isEmpty() ? "" : ": " + excerpt)
                    + OpenAiHttp.hint(status, "model").replaceFirst("\\.$", ""), status, excerpt, null);
        }
        ConsolidationPlan plan = parse(response.body(), status, excerpt);
        LOG.debug("The consolidation model at {} proposed {} merges for {} memories", where, plan.merges().size(), entries.size());
        return plan;
    }

    private String body(List<MemoryEntry> entries) {
        ArrayNode memories = JSON.createArrayNode();
        for (MemoryEntry entry : entries) {
            ObjectNode memory = memories.addObject();
            memory.put("key", entry.key());
            memory.put("value", entry.value());
            entry.tags().forEach(memory.putArray("tags")::add);
            memory.put("updated_at", entry.updatedAt().toString());
        }
        ObjectNode body = JSON.createObjectNode();
        body.put("model", settings.model());
        body.put("temperature", 0);
        if (settings.jsonMode()) {
            body.putObject("response_format").put("type", "json_object");
        }
        ArrayNode messages = body.putArray("messages");
        messages.addObject().put("role", "system").put("content", INSTRUCTIONS);
        messages.addObject().put("role", "user").put("content", memories.toString());
        return body.toString();
    }

    /** The plan in a chat-completions answer: {@code choices[0].message.content} holding the merges JSON. */
    private ConsolidationPlan parse(String body, int status, String excerpt) {
        JsonNode content;
        try {
            content = JSON.readTree(body).path("choices").path(0).path("message").path("content");
        } catch (JsonProcessingException e) {
            throw failed("answered with something that is not JSON: " + excerpt, status, excerpt, e);
        }
        if (!content.isTextual()) {
            throw failed("answered without 'choices[0].message.content': " + excerpt, status, excerpt, null);
        }
        String text = unfenced(content.asText());
        JsonNode merges;
        try {
            merges = JSON.readTree(text).path("merges");
        } catch (JsonProcessingException e) {
            throw failed("answered with a message that is not the JSON asked for: "
                    + OpenAiHttp.excerpt(text, apiKey), status, excerpt, e);
        }
        if (!merges.isArray()) {
            throw failed("answered without a 'merges' list: " + OpenAiHttp.excerpt(text, apiKey), status, excerpt, null);
        }
        List<ConsolidationPlan.Merge> plan = new ArrayList<>();
        for (JsonNode merge : merges) {
            JsonNode keep = merge.path("keep");
            JsonNode keys = merge.path("keys");
            JsonNode value = merge.path("value");
            if (!keep.isTextual() || !value.isTextual() || !keys.isArray() || keys.isEmpty()) {
                throw failed("answered with a merge without a 'keep' key, a 'keys' list and a 'value' text: "
                        + OpenAiHttp.excerpt(merge.toString(), apiKey), status, excerpt, null);
            }
            List<String> names = new ArrayList<>();
            for (JsonNode key : keys) {
                if (!key.isTextual()) {
                    throw failed("answered with a key that is not a string: " + OpenAiHttp.excerpt(key.toString(), apiKey),
                            status, excerpt, null);
                }
                names.add(key.asText());
            }
            plan.add(new ConsolidationPlan.Merge(keep.asText(), names, value.asText()));
        }
        return new ConsolidationPlan(plan);
    }

    /** The text inside a markdown code fence, if the model wrapped its JSON in one. */
    private static String unfenced(String text) {
        String trimmed = text.strip();
        if (trimmed.startsWith("```") && trimmed.endsWith("```") && trimmed.length() >= 6) {
            int firstLine = trimmed.indexOf('\n');
            return firstLine < 0 ? "" : trimmed.substring(firstLine + 1, trimmed.length() - 3);
        }
        return trimmed;
    }

    private ConsolidationServiceException failed(String what, int status, String excerpt, Throwable cause) {
        return new ConsolidationServiceException("The consolidation model " + settings.model() + " at " + where + " "
                + what + ". Nothing was changed.", status, excerpt, cause);
    }

    @Override
    public String name() {
        return "openai-chat";
    }

    /** Releases the HTTP client (on Java 21 and later; on 17 its thread ends once it is garbage). Idempotent. */
    @Override
    public void close() {
        if (client instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.debug("Closing the HTTP client failed: {}", e.toString());
            }
        }
    }

    @Override
    public String toString() {
        return "OpenAiChatConsolidator[" + settings + "]";
    }

    /**
     * The consolidator's settings, bound from YAML in {@code snake_case}.
     *
     * @param url       the base URL, http or https, without credentials, query or fragment; default
     *                  {@code https://api.openai.com/v1}
     * @param model     the model name the service knows (required)
     * @param apiKey    the key sent as a bearer token; {@code null} or blank to use {@code api_key_env}
     * @param apiKeyEnv the environment variable read when {@code api_key} is absent; default
     *                  {@value #DEFAULT_API_KEY_ENV}; no key is sent when it is unset too
     * @param timeout   the connect timeout and the response timeout, more than zero; default 60 s
     * @param jsonMode  whether to ask for {@code "response_format": {"type": "json_object"}}; default true; turn off for
     *                  servers that reject it
     */
    public record Settings(String url, String model, String apiKey, String apiKeyEnv, TimeSpan timeout, Boolean jsonMode) {

        /** The default base URL. */
        public static final String DEFAULT_URL = "https://api.openai.com/v1";
        /** The default environment variable holding the key. */
        public static final String DEFAULT_API_KEY_ENV = "FORGE_CONSOLIDATION_API_KEY";

        /** Fills in defaults and checks every value. */
        public Settings {
            url = OpenAiHttp.checkBaseUrl(url == null ? DEFAULT_URL : url.trim(), "the consolidation model", "/chat/completions");
            if (model == null || model.isBlank()) {
                throw new ConfigurationException("The consolidation model needs 'model': the name of the chat model on the "
                        + "service, e.g. gpt-4o-mini or llama3.1.");
            }
            model = model.trim();
            if (apiKey != null && apiKey.isBlank()) {
                apiKey = null;
            }
            if (apiKeyEnv == null || apiKeyEnv.isBlank()) {
                apiKeyEnv = DEFAULT_API_KEY_ENV;
            }
            if (timeout == null) {
                timeout = new TimeSpan(Duration.ofSeconds(60));
            } else if (timeout.duration().isZero()) {
                throw new ConfigurationException("'timeout' of the consolidation model must be more than zero.");
            }
            if (jsonMode == null) {
                jsonMode = true;
            }
        }

        /** Settings for {@code model} at {@code url}, everything else default. */
        public static Settings of(String url, String model) {
            return new Settings(url, model, null, null, null, null);
        }

        /** Says whether a key is set, never the key. */
        @Override
        public String toString() {
            return "Settings[url=" + url + ", model=" + model + ", api_key=" + (apiKey == null ? "none" : "***")
                    + ", api_key_env=" + apiKeyEnv + ", timeout=" + timeout + ", json_mode=" + jsonMode + "]";
        }
    }

    /** The settings in use. */
    public Settings settings() {
        return settings;
    }

    /** Whether a key will be sent (from {@code api_key} or the environment). */
    public boolean hasApiKey() {
        return apiKey != null;
    }
}
