package dev.forge.memory.langchain4j;

/** LangChain4j's removal suite against {@link ForgeEmbeddingStore} on the vector provider. */
class VectorEmbeddingStoreRemovalTest extends RemovalSuite {
    @Override
    String providerName() {
        return "vector";
    }
}
