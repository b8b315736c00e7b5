package dev.forge.memory.langchain4j;

/** {@link ForgeChatMemoryStore} on the sqlite provider. */
class SqliteChatMemoryStoreTest extends ChatMemoryStoreContract {
    @Override
    String providerName() {
        return "sqlite";
    }
}
