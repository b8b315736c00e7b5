package dev.forge.memory.springai;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * docs/spring-ai.md's chat agent, run as written: each question opens the memory anew (a restart), and the second
 * run's prompt holds what the first run said. No LLM is reachable here, so the model is a scripted one that answers
 * from the messages it is given.
 */
class ChatAgentExampleTest {

    @TempDir
    Path project;

    /** Answers "Your name is X." when an earlier user message of its prompt said "My name is X.", else says it does not know. */
    static final class ScriptedChatModel implements ChatModel {
        final List<List<Message>> prompts = new ArrayList<>();

        @Override
        public ChatResponse call(Prompt prompt) {
            prompts.add(List.copyOf(prompt.getInstructions()));
            String answer = "I do not know your name.";
            Pattern name = Pattern.compile("My name is (\\w+)\\.");
            for (Message message : prompt.getInstructions()) {
                Matcher m = name.matcher(message.getText() == null ? "" : message.getText());
                if (message.getMessageType() == MessageType.USER && m.find()) {
                    answer = "Nice to meet you, " + m.group(1) + ".";
                    if (message != prompt.getInstructions().get(prompt.getInstructions().size() - 1)) {
                        answer = "Your name is " + m.group(1) + ".";
                    }
                }
            }
            return new ChatResponse(List.of(new Generation(new AssistantMessage(answer))));
        }
    }

    @Test
    void the_agent_remembers_across_restarts_and_keeps_conversations_apart() {
        ScriptedChatModel model = new ScriptedChatModel();
        assertThat(RememberingAgent.ask(project, model, "ada", "My name is Ada.")).isEqualTo("Nice to meet you, Ada.");
        assertThat(RememberingAgent.ask(project, model, "ada", "What is my name?")).isEqualTo("Your name is Ada.");
        assertThat(RememberingAgent.ask(project, model, "bob", "What is my name?")).isEqualTo("I do not know your name.");

        assertThat(model.prompts.get(1)).extracting(Message::getText)
                .containsExactly("My name is Ada.", "Nice to meet you, Ada.", "What is my name?");
        assertThat(project.resolve(".forge/memory")).isDirectory();
    }

    @Test
    void the_documented_example_is_the_code_this_test_runs() throws IOException {
        String source = Files.readString(Path.of("src/test/java/dev/forge/memory/springai/RememberingAgent.java"));
        String example = source.substring(source.indexOf("// doc:start\n") + "// doc:start\n".length(), source.indexOf("    // doc:end"));
        String unindented = example.lines().map(line -> line.startsWith("    ") ? line.substring(4) : line)
                .collect(Collectors.joining("\n"));
        String doc = Files.readString(Path.of("../docs/spring-ai.md"));
        assertThat(doc).contains(unindented);
    }
}
