package dev.forge.memory.hybrid;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.util.LinkedHashMap;
import java.util.Map;

/** Opens hybrid routers in tests: children found on the test class path, as a user's would be. */
final class HybridStores {

    private HybridStores() {
    }

    /** The vector provider with the built-in hashing model, so that no test loads the ONNX model. */
    static Map<String, Object> vector() {
        return Map.of("provider", "vector", "embedding", Map.of("model", "hashing"));
    }

    /**
     * A {@link TestInMemoryProviderFactory} child block on the store {@code store} of the test directory, with more
     * settings given as key, value, key, value.
     */
    static Map<String, Object> inMemory(String store, Object... settings) {
        Map<String, Object> block = new LinkedHashMap<>();
        block.put("provider", TestInMemoryProviderFactory.NAME);
        block.put("store", store);
        for (int i = 0; i < settings.length; i += 2) {
            block.put((String) settings[i], settings[i + 1]);
        }
        return block;
    }

    /** A hybrid config of these blocks ({@code null} leaves one out). */
    static Map<String, Object> config(Map<String, Object> storage, Map<String, Object> search,
            Map<String, Object> relationships, Map<String, Object> extra) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("storage", storage);
        if (search != null) {
            config.put("search", search);
        }
        if (relationships != null) {
            config.put("relationships", relationships);
        }
        config.putAll(extra);
        return config;
    }

    /**
     * Opens a router on the context's store with {@code config} and the settings the context's config holds (a
     * conformance group's), discovering children on the class path.
     */
    static HybridMemoryProvider open(ProviderContext context, Map<String, Object> config) {
        Map<String, Object> values = new LinkedHashMap<>(config);
        values.putAll(context.config().values());
        ProviderContext withChildren = context.toBuilder().registry(ProviderRegistry.load())
                .config(ProviderConfig.of(values, "test.yaml", "memory.config")).build();
        return (HybridMemoryProvider) new HybridMemoryProviderFactory().open(withChildren);
    }

    /** As {@link #open}, typed as the SPI. */
    static MemoryProvider provider(ProviderContext context, Map<String, Object> config) {
        return open(context, config);
    }
}
