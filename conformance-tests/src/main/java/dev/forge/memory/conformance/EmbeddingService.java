package dev.forge.memory.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.HashingEmbeddingModelFactory;
import dev.forge.memory.spi.ProviderConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An embedding service on the loopback address that speaks OpenAI's {@code POST .../embeddings} protocol under any
 * base path (so a base URL may carry a token in its path), computing its vectors with the built-in hashing model of
 * {@value #DIMENSION} dimensions: the backend of the {@code openai} model in tests. It can be stopped and started again
 * on the same port, and made to refuse every request with a 401 or answer with something that is not JSON, in both
 * cases echoing back everything it received (path, {@code Authorization} header, body), as careless services do.
 */
public final class EmbeddingService implements AutoCloseable {

    /** The dimension of the vectors. */
    public static final int DIMENSION = 64;

    /** How the service answers. */
    public enum Mode {
        /** With vectors. */
        VECTORS,
        /** With a 401 whose error message echoes the request. */
        REFUSE,
        /** With a 200 whose body is not JSON and echoes the request. */
        NONSENSE
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final EmbeddingModel model = new HashingEmbeddingModelFactory()
            .open(ProviderConfig.of(Map.of("dimension", DIMENSION)));
    private volatile Mode mode = Mode.VECTORS;
    private int port;
    private HttpServer server;

    /** Starts on a free port. */
    public EmbeddingService() throws IOException {
        start();
    }

    /** The base URL of the service, as the {@code openai} model's {@code url} setting takes it. */
    public String url() {
        return "http://127.0.0.1:" + port + "/v1";
    }

    /** A base URL of the service with {@code token} as the first segment of its path, as some services take a key. */
    public String url(String token) {
        return "http://127.0.0.1:" + port + "/" + token + "/v1";
    }

    /**
     * The embedding block of a provider that uses this service and fails fast when it is gone (a stopped service
     * refuses the connection at once). The timeout only bounds an answer that never comes, which no mode gives: it
     * is sized for a busy machine, where 2 s once cut off an answer on its way.
     */
    public Map<String, Object> embedding() {
        return embedding(url(), "hashing-test");
    }

    /** As {@link #embedding()}, with this {@code url} and {@code remote_model}. */
    public Map<String, Object> embedding(String url, String remoteModel) {
        Map<String, Object> block = new LinkedHashMap<>();
        block.put("model", "openai");
        block.put("url", url);
        block.put("remote_model", remoteModel);
        block.put("dimension", DIMENSION);
        block.put("max_retries", 0);
        block.put("timeout", "60s");
        return block;
    }

    /** Answers from now on as {@code mode} says. */
    public void answer(Mode mode) {
        this.mode = mode;
    }

    /** Starts again, on the same port as before (or a free one the first time). */
    public synchronized void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/", this::handle);
        server.start();
        port = server.getAddress().getPort();
    }

    /** Stops at once: later requests find no server on the port. */
    public synchronized void stop() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] received = exchange.getRequestBody().readAllBytes();
            if (!exchange.getRequestURI().getPath().endsWith("/embeddings")) {
                send(exchange, 404, "{\"error\":{\"message\":\"not found\"}}");
                return;
            }
            Mode now = mode;
            if (now != Mode.VECTORS) {
                String echo = "path " + exchange.getRequestURI() + ", authorization "
                        + exchange.getRequestHeaders().getFirst("Authorization") + ", body "
                        + new String(received, StandardCharsets.UTF_8);
                if (now == Mode.REFUSE) {
                    send(exchange, 401, JSON.writeValueAsString(Map.of("error", Map.of("message",
                            "Incorrect API key or model: " + echo, "type", "invalid_request_error"))));
                } else {
                    send(exchange, 200, "<html><body>" + echo + "</body></html>");
                }
                return;
            }
            JsonNode request = JSON.readTree(received);
            List<String> texts = new ArrayList<>();
            JsonNode input = request.get("input");
            if (input.isArray()) {
                input.forEach(text -> texts.add(text.asText()));
            } else {
                texts.add(input.asText());
            }
            List<Map<String, Object>> data = new ArrayList<>();
            List<float[]> vectors = model.embed(texts);
            for (int i = 0; i < vectors.size(); i++) {
                Map<String, Object> item = new LinkedHashMap<>();
                item.put("object", "embedding");
                item.put("index", i);
                item.put("embedding", vectors.get(i));
                data.add(item);
            }
            send(exchange, 200, JSON.writeValueAsString(Map.of("object", "list", "data", data, "model", "hashing-test")));
        }
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        stop();
    }
}
