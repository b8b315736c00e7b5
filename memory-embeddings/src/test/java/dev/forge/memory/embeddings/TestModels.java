package dev.forge.memory.embeddings;

import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.support.EmbeddingModels;
import java.util.HashMap;
import java.util.Map;

/** Opening the local models the way a provider does, and comparing their unit vectors. */
final class TestModels {

    private TestModels() {
    }

    /** The model {@code name} with {@code settings}, found through the service loader as a provider finds it. */
    static EmbeddingModel open(String name, Map<String, ?> settings) {
        Map<String, Object> block = new HashMap<>(settings);
        block.put("model", name);
        return EmbeddingModels.load().open(ProviderConfig.of(block, "test.yaml", "memory.config.embedding"));
    }

    /** The cosine of two unit vectors. */
    static double cosine(float[] a, float[] b) {
        double dot = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
        }
        return dot;
    }
}
