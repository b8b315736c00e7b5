package dev.forge.memory.hybrid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.embedding.HashingEmbeddingModelFactory;
import dev.forge.memory.spi.ProviderConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An embedding service on the loopback address that speaks OpenAI's {@code POST /v1/embeddings} protocol, computing
 * its vectors with the built-in hashing model: the search child's embedding backend in the fault tests, which stop it
 * and start it again on the same port to take the search child down and bring it back.
 */
final class EmbeddingServer implements AutoCloseable {

    static final int DIMENSION = 64;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final EmbeddingModel model = new HashingEmbeddingModelFactory()
            .open(ProviderConfig.of(Map.of("dimension", DIMENSION)));
    private int port;
    private HttpServer server;

    /** Starts on a free port. */
    EmbeddingServer() throws IOException {
        start();
    }

    /** The base URL of the service, as the {@code openai} model's {@code url} setting takes it. */
    String url() {
        return "http://127.0.0.1:" + port + "/v1";
    }

    /** The embedding block of a vector provider that uses this service and fails fast when it is gone. */
    Map<String, Object> embedding() {
        return Map.of("model", "openai", "url", url(), "remote_model", "hashing-test", "dimension", DIMENSION,
                "max_retries", 0, "timeout", "2s");
    }

    /** Starts again, on the same port as before (or a free one the first time). */
    synchronized void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/v1/embeddings", this::embed);
        server.start();
        port = server.getAddress().getPort();
    }

    /** Stops at once: later requests find no server on the port. */
    synchronized void stop() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
    }

    private void embed(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode request = JSON.readTree(exchange.getRequestBody());
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
            byte[] body = JSON.writeValueAsBytes(Map.of("object", "list", "data", data, "model", "hashing-test"));
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        stop();
    }
}
