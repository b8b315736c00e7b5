package dev.forge.memory.langchain4j;

/** LangChain4j's embedding store suite against {@link ForgeEmbeddingStore} on the in-memory provider. */
class InMemoryEmbeddingStoreTest extends FilteringSuite {
    @Override
    String providerName() {
        return "in-memory";
    }
}
