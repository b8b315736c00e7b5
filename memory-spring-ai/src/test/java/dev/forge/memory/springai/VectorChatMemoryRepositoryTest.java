package dev.forge.memory.springai;

/** The chat memory repository over the vector provider. */
class VectorChatMemoryRepositoryTest extends ChatMemoryRepositoryContract {

    @Override
    String providerName() {
        return "vector";
    }
}
