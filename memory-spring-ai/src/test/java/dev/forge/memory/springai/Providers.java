package dev.forge.memory.springai;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.nio.file.Path;
import java.util.Map;

/** Opens real providers on a test's directory: the project there, GLOBAL memories under its {@code home}. */
final class Providers {

    private Providers() {
    }

    /**
     * The settings the tests open each provider with: vector with the hashing model (no ONNX, no network); hybrid
     * with sqlite storage and such a vector index for search.
     */
    static Map<String, Object> settings(String provider) {
        return switch (provider) {
            case "vector" -> Map.of("embedding", Map.of("model", "hashing"));
            case "hybrid" -> Map.of("storage", Map.of("provider", "sqlite"),
                    "search", Map.of("provider", "vector", "embedding", Map.of("model", "hashing")));
            default -> Map.of();
        };
    }

    static MemoryProvider open(String provider, Path directory) {
        return open(provider, directory, "session-1");
    }

    static MemoryProvider open(String provider, Path directory, String session) {
        ProviderContext context = ProviderContext.builder()
                .config(ProviderConfig.of(settings(provider)))
                .projectId("spring-ai-test")
                .sessionId(session)
                .baseDirectory(directory)
                .forgeHome(directory.resolve("home"))
                .build();
        return ProviderRegistry.load().open(provider, context);
    }
}
