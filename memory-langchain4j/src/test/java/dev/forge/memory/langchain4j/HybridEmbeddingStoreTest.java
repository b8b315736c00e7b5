package dev.forge.memory.langchain4j;

/** LangChain4j's embedding store suite against {@link ForgeEmbeddingStore} on the hybrid router: sqlite storage, vector search. */
class HybridEmbeddingStoreTest extends FilteringSuite {
    @Override
    String providerName() {
        return "hybrid";
    }
}
