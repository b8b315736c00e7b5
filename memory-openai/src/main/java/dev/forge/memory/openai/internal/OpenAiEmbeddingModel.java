package dev.forge.memory.openai.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.embedding.EmbeddingServiceException;
import dev.forge.memory.openai.OpenAiEmbeddingModelFactory;
import dev.forge.memory.openai.OpenAiEmbeddingModelFactory.Settings;
import dev.forge.memory.openai.internal.OpenAiHttp;
import dev.forge.memory.spi.ProviderConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client of one OpenAI-compatible {@code /embeddings} endpoint. Thread-safe; requests of concurrent calls run in
 * parallel. Not API: open it through {@link OpenAiEmbeddingModelFactory}.
 *
 * <p>Its settings' secrets (the key, and a {@code url} or {@code remote_model} that came from a secret-looking
 * variable) never appear in its messages, the causes its exceptions keep, its logs, or its fingerprint
 * ({@link OpenAiFingerprint}): a service that echoes them back is masked too.
 */
public final class OpenAiEmbeddingModel implements EmbeddingModel {

    /**
     * Which settings are secrets.
     *
     * @param values      the secret texts of the settings (the key among them), as
     *                    {@link dev.forge.memory.spi.ProviderConfig#secretValues()} gives them
     * @param url         whether {@code url} is a secret (came from a secret-looking variable)
     * @param remoteModel whether {@code remote_model} is a secret
     */
    public record Secrets(Set<String> values, boolean url, boolean remoteModel) {

        /** No secret but the key. */
        public static final Secrets NONE = new Secrets(Set.of(), false, false);

        /** Copies the values. */
        public Secrets {
            values = Set.copyOf(values);
        }

        /** What {@code settings} (an openai model's block) marks as secret. */
        public static Secrets of(ProviderConfig settings) {
            return new Secrets(settings.secretValues(), settings.isSecret("url"), settings.isSecret("remote_model"));
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(OpenAiEmbeddingModel.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration MAX_WAIT = Duration.ofSeconds(60);
    private static final AtomicInteger CLIENTS = new AtomicInteger();

    private final Settings settings;
    private final URI endpoint;
    private final String where;
    /** How messages name the service and the model: masked when a secret. */
    private final String shownWhere;
    private final String shownModel;
    private final Redaction redaction;
    private final ExecutorService executor;
    private final HttpClient client;
    private final int dimension;
    private final OpenAiFingerprint fingerprint;
    private volatile boolean closed;

    private OpenAiEmbeddingModel(Settings settings, Secrets secrets) {
        this.settings = settings;
        this.endpoint = URI.create(settings.url() + "/embeddings");
        this.where = OpenAiHttp.where(settings.url());
        this.shownWhere = secrets.url() ? Redaction.MASK : where;
        this.shownModel = secrets.remoteModel() ? Redaction.MASK : settings.remoteModel();
        this.redaction = redaction(settings, secrets, where);
        int number = CLIENTS.incrementAndGet();
        AtomicInteger threads = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(4, 4, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
            Thread thread = new Thread(task, "forge-openai-embeddings-" + number + "-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        pool.allowCoreThreadTimeOut(true);
        this.executor = pool;
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(settings.timeout().duration())
                .executor(pool)
                .build();
        int known;
        if (settings.dimension() != null) {
            known = settings.dimension();
        } else {
            try {
                known = request(List.of("dimension probe"), -1).get(0).length;
            } catch (RuntimeException e) {
                close();
                throw e;
            }
            LOG.debug("The embedding service at {} makes {} vectors of {} components", shownWhere, shownModel, known);
        }
        this.dimension = known;
        this.fingerprint = new OpenAiFingerprint(where, settings.remoteModel(), known, secrets.url(),
                secrets.remoteModel(), redaction);
    }

    /**
     * Opens a client whose only secret is the key; without a configured dimension, asks the service for one vector to
     * learn it.
     *
     * @throws EmbeddingServiceException if the dimension must be learnt and the service cannot give it
     */
    public static OpenAiEmbeddingModel open(Settings settings) {
        return open(settings, Secrets.NONE);
    }

    /**
     * Opens a client that keeps {@code secrets} out of what it says and records; without a configured dimension, asks
     * the service for one vector to learn it.
     *
     * @throws EmbeddingServiceException if the dimension must be learnt and the service cannot give it
     */
    public static OpenAiEmbeddingModel open(Settings settings, Secrets secrets) {
        return new OpenAiEmbeddingModel(Objects.requireNonNull(settings, "settings"), Objects.requireNonNull(secrets, "secrets"));
    }

    /**
     * What is masked: the secret values and the key, and of a secret URL also its forms in messages (without scheme,
     * with the endpoint's path) and each of its parts (host, path segments, query), since a service or an I/O error
     * may echo any of them.
     */
    private static Redaction redaction(Settings settings, Secrets secrets, String where) {
        Set<String> masked = new LinkedHashSet<>(secrets.values());
        if (settings.apiKey() != null) {
            masked.add(settings.apiKey());
        }
        if (secrets.url()) {
            URI uri = URI.create(settings.url());
            masked.addAll(List.of(settings.url(), where, settings.url() + "/embeddings", where + "/embeddings"));
            masked.add(uri.getHost());
            for (String part : String.valueOf(uri.getRawPath()).split("[/;=&?]")) {
                if (part.length() >= ProviderConfig.SHORTEST_MASKED) {
                    masked.add(part);
                    masked.add(java.net.URLDecoder.decode(part, StandardCharsets.UTF_8));
                }
            }
        }
        if (secrets.remoteModel()) {
            masked.add(settings.remoteModel());
        }
        masked.removeIf(text -> text == null || text.strip().length() < ProviderConfig.SHORTEST_MASKED);
        return Redaction.of(masked);
    }

    @Override
    public String name() {
        return OpenAiEmbeddingModelFactory.NAME;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    /**
     * {@code openai:<host[:port]><path>:<remote model>:<dimension>:l2}, with a secret {@code url} as {@code ****} and a
     * secret {@code remote_model} as a hash; see {@link OpenAiFingerprint}.
     */
    @Override
    public String fingerprint() {
        return fingerprint.value();
    }

    @Override
    public boolean recognises(String recordedFingerprint) {
        return fingerprint.recognises(recordedFingerprint);
    }

    @Override
    public String describe(String recordedFingerprint) {
        return fingerprint.describe(recordedFingerprint);
    }

    /**
     * The unit vectors of {@code texts}, {@code batch_size} texts per request; empty or blank texts get the zero vector
     * and are not sent.
     *
     * @throws EmbeddingServiceException    if the service refuses, keeps failing, or answers nonsense
     * @throws BackendUnavailableException  if the model has been closed or the thread is interrupted
     */
    @Override
    public List<float[]> embed(List<String> texts) {
        List<float[]> vectors = new ArrayList<>(texts.size());
        List<Integer> sent = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            String text = Objects.requireNonNull(texts.get(i), "text");
            vectors.add(text.isBlank() ? new float[dimension] : null);
            if (!text.isBlank()) {
                sent.add(i);
            }
        }
        for (int from = 0; from < sent.size(); from += settings.batchSize()) {
            List<Integer> batch = sent.subList(from, Math.min(sent.size(), from + settings.batchSize()));
            List<String> inputs = new ArrayList<>(batch.size());
            batch.forEach(i -> inputs.add(texts.get(i)));
            List<float[]> answer = request(inputs, dimension);
            for (int j = 0; j < batch.size(); j++) {
                vectors.set(batch.get(j), answer.get(j));
            }
        }
        return vectors;
    }

    /** Stops the client's threads; calls running now fail. Idempotent. */
    @Override
    public void close() {
        closed = true;
        executor.shutdownNow();
        // Java 21 made HttpClient closeable (it stops its selector thread); on 17 that thread ends once the client is
        // garbage.
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
        return redaction.apply("OpenAiEmbeddingModel[" + fingerprint.value() + ", " + settings + "]");
    }

    /**
     * One request with its retries: the unit vectors of {@code inputs}, of {@code expected} components, or of any one
     * number of components when {@code expected} is -1 (the probe, which sends one text).
     */
    private List<float[]> request(List<String> inputs, int expected) {
        String body = body(inputs);
        HttpRequest.Builder builder = HttpRequest.newBuilder(endpoint)
                .timeout(settings.timeout().duration())
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .header("User-Agent", "forge-memory")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (settings.apiKey() != null) {
            builder.header("Authorization", "Bearer " + settings.apiKey());
        }
        HttpRequest request = builder.build();
        int attempts = settings.maxRetries() + 1;
        String last = "";
        int lastStatus = -1;
        String lastExcerpt = null;
        Throwable lastCause = null;
        for (int attempt = 1; attempt <= attempts; attempt++) {
            checkOpen();
            Duration wait = backoff(attempt);
            try {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
                int status = response.statusCode();
                if (status >= 200 && status < 300) {
                    return parse(response.body(), inputs.size(), expected, status);
                }
                lastStatus = status;
                lastExcerpt = excerpt(response.body());
                lastCause = null;
                last = "HTTP " + status + (lastExcerpt.isEmpty() ? "" : ": " + lastExcerpt);
                if (status != 429 && status < 500) {
                    throw failure("The embedding service at " + shownWhere + " refused the request for "
                            + shownModel + " with " + last + hint(status), status, lastExcerpt, null);
                }
                Optional<Duration> retryAfter = retryAfter(response);
                if (retryAfter.isPresent()) {
                    wait = retryAfter.get().compareTo(MAX_WAIT) > 0 ? MAX_WAIT : retryAfter.get();
                }
            } catch (HttpConnectTimeoutException e) {
                last = "connecting timed out after " + settings.timeout();
                lastCause = e;
            } catch (HttpTimeoutException e) {
                last = "no response within " + settings.timeout();
                lastCause = e;
            } catch (IOException e) {
                checkOpen();
                last = "cannot connect or the connection broke: " + e;
                lastCause = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BackendUnavailableException("Interrupted while waiting for the embedding service at " + shownWhere + ".", e);
            }
            if (attempt < attempts) {
                LOG.debug("Embedding request to {} failed ({}); retry {} of {} in {} ms", shownWhere, redaction.apply(last), attempt,
                        settings.maxRetries(), wait.toMillis());
                sleep(wait);
            }
        }
        throw failure("The embedding service at " + shownWhere + " failed " + attempts
                + (attempts == 1 ? " time" : " times") + " for " + shownModel + "; last: " + last
                + ". Is it running and reachable? (retries: 'max_retries', waits: 'retry_backoff', 'timeout')",
                lastStatus, lastExcerpt, lastCause);
    }

    private String body(List<String> inputs) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", settings.remoteModel());
        ArrayNode input = body.putArray("input");
        inputs.forEach(input::add);
        if (settings.sendEncodingFormat()) {
            body.put("encoding_format", "float");
        }
        return body.toString();
    }

    private List<float[]> parse(String body, int count, int expected, int status) {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw bad("answered with something that is not JSON", body, status, e);
        }
        JsonNode data = root == null ? null : root.get("data");
        if (data == null || !data.isArray()) {
            throw bad("answered without a 'data' array", body, status, null);
        }
        if (data.size() != count) {
            throw bad("returned " + data.size() + " vectors for " + count + " texts", body, status, null);
        }
        float[][] vectors = new float[count][];
        for (JsonNode item : data) {
            JsonNode index = item.get("index");
            if (index == null || !index.isIntegralNumber() || !index.canConvertToInt() || index.asInt() < 0 || index.asInt() >= count) {
                throw bad("returned an item without a valid 'index' (0 to " + (count - 1) + ")", body, status, null);
            }
            int i = index.asInt();
            if (vectors[i] != null) {
                throw bad("returned index " + i + " twice", body, status, null);
            }
            float[] vector = vector(item.get("embedding"), body, status);
            if (expected >= 0 && vector.length != expected) {
                String message = settings.dimension() != null
                        ? "returned vectors of " + vector.length + " components, but 'dimension' is " + expected
                          + ": set 'dimension: " + vector.length + "' (and reindex), or use the model that makes "
                          + expected
                        : "returned vectors of " + vector.length + " components, but " + expected
                          + " when the model was opened: has the service's model changed? Reopen (and reindex)";
                throw failure("The embedding service at " + shownWhere + " (" + shownModel
                        + ") " + message + ".", status, null, null);
            }
            vectors[i] = normalised(vector);
        }
        return List.of(vectors);
    }

    private float[] vector(JsonNode embedding, String body, int status) {
        if (embedding != null && embedding.isArray() && !embedding.isEmpty()) {
            float[] vector = new float[embedding.size()];
            for (int d = 0; d < vector.length; d++) {
                JsonNode component = embedding.get(d);
                if (!component.isNumber() || !Double.isFinite(component.asDouble())) {
                    throw bad("returned a vector with a component that is not a finite number", body, status, null);
                }
                vector[d] = (float) component.asDouble();
            }
            return vector;
        }
        if (embedding != null && embedding.isTextual()) { // encoding_format base64: little-endian float32
            byte[] bytes;
            try {
                bytes = Base64.getDecoder().decode(embedding.asText());
            } catch (IllegalArgumentException e) {
                throw bad("returned an 'embedding' string that is not base64", body, status, e);
            }
            if (bytes.length == 0 || bytes.length % 4 != 0) {
                throw bad("returned a base64 'embedding' that is not a list of float32", body, status, null);
            }
            float[] vector = new float[bytes.length / 4];
            ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(vector);
            return vector;
        }
        throw bad("returned an item without an 'embedding' list of numbers", body, status, null);
    }

    private static float[] normalised(float[] vector) {
        double norm = 0;
        for (float component : vector) {
            norm += (double) component * component;
        }
        if (norm > 0) {
            double scale = 1 / Math.sqrt(norm);
            for (int d = 0; d < vector.length; d++) {
                vector[d] = (float) (vector[d] * scale);
            }
        }
        return vector;
    }

    private EmbeddingServiceException bad(String what, String body, int status, Throwable cause) {
        String excerpt = excerpt(body);
        return failure("The embedding service at " + shownWhere + " (" + shownModel + ") "
                + what + (excerpt.isEmpty() ? "" : ": " + excerpt) + ". Is 'url' an OpenAI-compatible /v1 endpoint?",
                status, excerpt, cause);
    }

    /** An error with every secret masked: in the message, the body excerpt and the cause's messages. */
    private EmbeddingServiceException failure(String message, int status, String excerpt, Throwable cause) {
        return new EmbeddingServiceException(redaction.apply(message), status, redaction.apply(excerpt),
                redaction.cause(cause));
    }

    /** The start of a body, secrets masked before it is cut (so that no part of one is left at the cut). */
    private String excerpt(String body) {
        return OpenAiHttp.excerpt(redaction.apply(body), settings.apiKey());
    }

    private static String hint(int status) {
        return OpenAiHttp.hint(status, "remote_model");
    }

    private Duration backoff(int attempt) {
        Duration first = settings.retryBackoff().duration();
        Duration wait = first.multipliedBy(1L << Math.min(attempt - 1, 20));
        return wait.compareTo(MAX_WAIT) > 0 ? MAX_WAIT : wait;
    }

    /** A {@code Retry-After} of seconds or an HTTP date. */
    private static Optional<Duration> retryAfter(HttpResponse<?> response) {
        Optional<String> header = response.headers().firstValue("Retry-After").map(String::trim);
        if (header.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Duration.ofSeconds(Math.max(0, Long.parseLong(header.get()))));
        } catch (NumberFormatException e) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(header.get(), DateTimeFormatter.RFC_1123_DATE_TIME);
                Duration until = Duration.between(ZonedDateTime.now(at.getZone()), at);
                return Optional.of(until.isNegative() ? Duration.ZERO : until);
            } catch (DateTimeParseException ignored) {
                return Optional.empty();
            }
        }
    }

    private void sleep(Duration wait) {
        try {
            Thread.sleep(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendUnavailableException("Interrupted while waiting to retry the embedding service at " + shownWhere + ".", e);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new BackendUnavailableException("The openai embedding model (" + shownWhere + ") has been closed.");
        }
    }
}
