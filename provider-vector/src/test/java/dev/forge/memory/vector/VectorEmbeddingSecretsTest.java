package dev.forge.memory.vector;

import dev.forge.memory.conformance.EmbeddingSecretsContract;
import java.nio.file.Path;
import java.util.Map;

/** The vector index keeps the secrets of its model's settings out of its files and messages: see the contract. */
class VectorEmbeddingSecretsTest extends EmbeddingSecretsContract {

    @Override
    protected String providerName() {
        return VectorMemoryProvider.NAME;
    }

    @Override
    protected Map<String, Object> config(Path base, Map<String, Object> embedding) {
        return Map.of("embedding", embedding);
    }

    @Override
    protected String embeddingPath() {
        return "embedding";
    }
}
