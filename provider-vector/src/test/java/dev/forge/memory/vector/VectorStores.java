package dev.forge.memory.vector;

import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Contexts and providers of the vector provider's own tests: the hashing model unless a test says otherwise. */
final class VectorStores {

    private VectorStores() {
    }

    /** The settings {@code extra} on top of the hashing model of {@code dimension} components. */
    static Map<String, Object> hashing(int dimension, Map<String, Object> extra) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("embedding", Map.of("model", "hashing", "dimension", dimension));
        config.putAll(extra);
        return config;
    }

    /** A context for project {@code project} on the store under {@code base}, with {@code config}. */
    static ProviderContext context(Path base, String project, Map<String, Object> config) {
        return ProviderContext.builder()
                .projectId(project)
                .sessionId("session-1")
                .baseDirectory(base)
                .forgeHome(base.resolve("forge-home"))
                .registry(ProviderRegistry.of())
                .config(ProviderConfig.of(config, "test.yaml", "memory.config"))
                .build();
    }

    /**
     * Runs {@code write(0)} to {@code write(count - 1)} on 8 threads of its own, so that group commits make several
     * writes durable at once: each write commits before it returns, so a long sequential loop is slow.
     */
    static void writeInParallel(int count, java.util.function.IntConsumer write) {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            java.util.List<java.util.concurrent.Future<?>> futures = new java.util.ArrayList<>();
            for (int i = 0; i < count; i++) {
                int n = i;
                futures.add(pool.submit(() -> write.accept(n)));
            }
            for (java.util.concurrent.Future<?> future : futures) {
                future.get(5, java.util.concurrent.TimeUnit.MINUTES);
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Opens the provider on {@code base} for project {@code p} with the hashing model of {@code dimension} components. */
    static VectorMemoryProvider open(Path base, int dimension, boolean forReindex) {
        ProviderContext context = context(base, "p", hashing(dimension, Map.of())).toBuilder().openForReindex(forReindex).build();
        return (VectorMemoryProvider) new VectorMemoryProviderFactory().open(context);
    }

    /** Opens the provider on {@code base} for {@code project}, hashing model of 384 components plus {@code extra}. */
    static VectorMemoryProvider open(Path base, String project, Map<String, Object> extra) {
        return (VectorMemoryProvider) new VectorMemoryProviderFactory().open(context(base, project, hashing(384, extra)));
    }
}
