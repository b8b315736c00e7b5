package dev.forge.memory.springai;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.config.Memories;
import java.nio.file.Path;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.model.ChatModel;

/** The example of docs/spring-ai.md, as it is written there (between the doc markers): a chat agent that remembers. */
final class RememberingAgent {

    private RememberingAgent() {
    }

    // doc:start
    static String ask(Path projectDirectory, ChatModel chatModel, String conversationId, String question) {
        // The provider .forge/config.yaml selects: markdown under .forge/memory when there is none.
        try (MemoryProvider memory = Memories.open(projectDirectory)) {
            ChatMemory chatMemory = MessageWindowChatMemory.builder()
                    .chatMemoryRepository(ForgeChatMemoryRepository.of(memory))
                    .maxMessages(20)
                    .build();
            ChatClient chat = ChatClient.builder(chatModel)
                    .defaultAdvisors(MessageChatMemoryAdvisor.builder(chatMemory).build())
                    .build();
            return chat.prompt()
                    .user(question)
                    .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversationId))
                    .call()
                    .content();
        }
    }
    // doc:end
}
