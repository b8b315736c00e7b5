package dev.forge.memory.springai;

/** The chat memory repository over the markdown provider. */
class MarkdownChatMemoryRepositoryTest extends ChatMemoryRepositoryContract {

    @Override
    String providerName() {
        return "markdown";
    }
}
