package dev.forge.memory.langchain4j;

/** LangChain4j's embedding store suite against {@link ForgeEmbeddingStore} on the vector provider. */
class VectorEmbeddingStoreTest extends FilteringSuite {
    @Override
    String providerName() {
        return "vector";
    }
}
