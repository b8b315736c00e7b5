package dev.forge.memory.langchain4j;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.config.Memories;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the example of docs/langchain4j.md: a chat agent that remembers across restarts, on sqlite files. */
class RememberingAssistantTest {

    @TempDir
    Path project;

    /**
     * A scripted chat model (no LLM is reachable in the build): it learns a name only from the messages it is sent,
     * so it can answer "What is my name?" only when the memory brought the earlier turn back.
     */
    static final class ScriptedModel implements ChatModel {
        private static final Pattern NAME = Pattern.compile("My name is (\\w+)");

        @Override
        public ChatResponse doChat(ChatRequest request) {
            String name = null;
            for (ChatMessage message : request.messages()) {
                if (message instanceof UserMessage user && user.hasSingleText()) {
                    Matcher m = NAME.matcher(user.singleText());
                    if (m.find()) {
                        name = m.group(1);
                    }
                }
            }
            String reply = name == null ? "I do not know your name." : "Your name is " + name + ".";
            return ChatResponse.builder().aiMessage(AiMessage.from(reply)).build();
        }
    }

    @Test
    void the_assistant_remembers_a_conversation_across_restarts_and_keeps_users_apart() {
        Memories.Builder memories = Stores.memories(project, "sqlite");
        ChatModel model = new ScriptedModel();
        RememberingAssistant.ask(memories, model, "ana", "Hello! My name is Ana.");
        // Each ask opens and closes the provider: the next one is a restart of the program.
        assertThat(RememberingAssistant.ask(memories, model, "ana", "What is my name?")).isEqualTo("Your name is Ana.");
        assertThat(RememberingAssistant.ask(memories, model, "bo", "What is my name?")).isEqualTo("I do not know your name.");

        try (MemoryProvider memory = memories.open()) {
            List<ChatMessage> kept = ForgeChatMemoryStore.of(memory).getMessages("ana");
            assertThat(kept).hasSize(4).last().isEqualTo(AiMessage.from("Your name is Ana."));
            assertThat(memory.get(ForgeChatMemoryStore.of(memory).keyOf("ana"), Scope.PROJECT)).isPresent();
        }
    }

    @Test
    void the_doc_shows_the_example_this_test_runs() throws Exception {
        String source = Files.readString(Path.of("src/test/java/dev/forge/memory/langchain4j/RememberingAssistant.java"));
        String example = source.substring(source.indexOf("// example:start") + "// example:start".length(),
                source.indexOf("    // example:end"));
        String doc = Files.readString(Path.of("../docs/langchain4j.md"));
        assertThat(normalise(doc)).contains(normalise(example));
    }

    private static String normalise(String text) {
        return text.lines().map(String::strip).filter(line -> !line.isEmpty()).reduce("", (a, b) -> a + b + "\n");
    }
}
