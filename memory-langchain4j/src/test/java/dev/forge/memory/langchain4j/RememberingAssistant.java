package dev.forge.memory.langchain4j;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.config.Memories;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;

/** The example of docs/langchain4j.md, verbatim between the markers; {@link RememberingAssistantTest} runs it. */
final class RememberingAssistant {

    private RememberingAssistant() {
    }

    // example:start
    interface Assistant {
        String chat(@MemoryId String user, @UserMessage String message);
    }

    static String ask(Memories.Builder memories, ChatModel model, String user, String message) {
        try (MemoryProvider memory = memories.open()) {
            ForgeChatMemoryStore store = ForgeChatMemoryStore.of(memory);
            Assistant assistant = AiServices.builder(Assistant.class)
                    .chatModel(model)
                    .chatMemoryProvider(id -> MessageWindowChatMemory.builder()
                            .id(id).maxMessages(20).chatMemoryStore(store).build())
                    .build();
            return assistant.chat(user, message);
        }
    }
    // example:end
}
