package dev.forge.memory.langchain4j;

/** {@link ForgeChatMemoryStore} on the file provider. */
class FileChatMemoryStoreTest extends ChatMemoryStoreContract {
    @Override
    String providerName() {
        return "file";
    }
}
