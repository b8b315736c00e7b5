package dev.forge.memory.langchain4j;

/** LangChain4j's removal suite against {@link ForgeEmbeddingStore} on the hybrid router: sqlite storage, vector search. */
class HybridEmbeddingStoreRemovalTest extends RemovalSuite {
    @Override
    String providerName() {
        return "hybrid";
    }
}
