package dev.forge.memory.springai;

/** The chat memory repository over the sqlite provider. */
class SqliteChatMemoryRepositoryTest extends ChatMemoryRepositoryContract {

    @Override
    String providerName() {
        return "sqlite";
    }
}
