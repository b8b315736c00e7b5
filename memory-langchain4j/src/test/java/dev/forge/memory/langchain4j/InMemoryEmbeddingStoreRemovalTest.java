package dev.forge.memory.langchain4j;

/** LangChain4j's removal suite against {@link ForgeEmbeddingStore} on the in-memory provider. */
class InMemoryEmbeddingStoreRemovalTest extends RemovalSuite {
    @Override
    String providerName() {
        return "in-memory";
    }
}
