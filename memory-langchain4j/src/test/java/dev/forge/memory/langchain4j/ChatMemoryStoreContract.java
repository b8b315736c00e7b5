package dev.forge.memory.langchain4j;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.ValueTooLargeException;
import dev.forge.memory.config.Memories;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What {@link ForgeChatMemoryStore} promises, run against a real provider on files in a temporary directory. LangChain4j
 * publishes no base class for chat memory stores (its {@code ChatMemoryStoreTest} is package-private and tests only
 * the async defaults of its interface), so these are the equivalent tests.
 */
abstract class ChatMemoryStoreContract {

    @TempDir
    Path project;

    private final List<MemoryProvider> opened = new ArrayList<>();

    /** The provider under test, as found by name. */
    abstract String providerName();

    /** Opens the project's provider as a program does, the same store each time. */
    MemoryProvider open() {
        MemoryProvider provider = Memories.builder().projectDirectory(project).provider(providerName())
                .userHome(project.resolve("home")).environment(Map.of()).plugins(false).open();
        opened.add(provider);
        return provider;
    }

    @AfterEach
    void closeProviders() {
        opened.forEach(MemoryProvider::close);
    }

    static List<ChatMessage> everyKindOfMessage() {
        ToolExecutionRequest call = ToolExecutionRequest.builder().id("call-1").name("weather")
                .arguments("{\"city\":\"Zürich\",\"days\":3}").build();
        return List.of(
                SystemMessage.from("You are a terse assistant."),
                UserMessage.from(TextContent.from("What is on this picture, and what is the weather?"),
                        ImageContent.from("https://example.com/pictures/lake.png")),
                AiMessage.from("Let me look that up.", List.of(call)),
                ToolExecutionResultMessage.from(call, "{\"forecast\":[\"sun\",\"rain\",\"sun\"]}"),
                AiMessage.from("A lake; sun, then rain, then sun."),
                UserMessage.from("user-7", "Thanks!"));
    }

    @Test
    void every_kind_of_message_comes_back_exactly_after_a_restart() {
        List<ChatMessage> conversation = everyKindOfMessage();
        try (MemoryProvider first = open()) {
            ForgeChatMemoryStore.of(first).updateMessages("conversation-1", conversation);
        }
        MemoryProvider again = open();
        assertThat(ForgeChatMemoryStore.of(again).getMessages("conversation-1")).isEqualTo(conversation);
    }

    @Test
    void an_unknown_conversation_has_no_messages() {
        assertThat(ForgeChatMemoryStore.of(open()).getMessages(UUID.randomUUID())).isEmpty();
    }

    @Test
    void an_update_replaces_the_conversation_and_delete_removes_its_entry() {
        MemoryProvider provider = open();
        ForgeChatMemoryStore store = ForgeChatMemoryStore.of(provider);
        store.updateMessages(42, List.of(UserMessage.from("first")));
        store.updateMessages(42, List.of(UserMessage.from("first"), AiMessage.from("second")));
        assertThat(store.getMessages(42)).containsExactly(UserMessage.from("first"), AiMessage.from("second"));
        assertThat(provider.get(store.keyOf(42), Scope.PROJECT)).get()
                .satisfies(e -> assertThat(e.version()).isEqualTo(2))
                .satisfies(e -> assertThat(e.tags()).containsExactly(ForgeChatMemoryStore.TAG))
                .satisfies(e -> assertThat(e.metadata()).containsEntry("memory_id", "42").containsEntry("messages", 2L));

        store.deleteMessages(42);
        assertThat(store.getMessages(42)).isEmpty();
        assertThat(provider.get(store.keyOf(42), Scope.PROJECT)).isEmpty();
        store.deleteMessages(42);
    }

    @Test
    void different_ids_never_share_a_conversation() {
        ForgeChatMemoryStore store = ForgeChatMemoryStore.of(open());
        String longId = "x".repeat(600);
        List<Object> ids = List.of(1, "1", 1L, "a/b", "a\nb", "a\u0000b", longId, longId + "y", "", " ",
                UUID.fromString("00000000-0000-0000-0000-000000000001"), "00000000-0000-0000-0000-000000000001");
        for (Object id : ids) {
            store.updateMessages(id, List.of(UserMessage.from("I am " + id.getClass().getSimpleName() + " " + id)));
        }
        for (Object id : ids) {
            assertThat(store.getMessages(id)).as("%s %s", id.getClass(), id)
                    .containsExactly(UserMessage.from("I am " + id.getClass().getSimpleName() + " " + id));
        }
        assertThat(ids.stream().map(store::keyOf).distinct()).hasSize(ids.size());
        assertThat(store.keyOf("session-7")).isEqualTo("langchain4j/chat/java.lang.String=session-7");
    }

    @Test
    void the_scope_is_configurable_and_scopes_keep_conversations_apart() {
        MemoryProvider provider = open();
        ForgeChatMemoryStore project = ForgeChatMemoryStore.of(provider);
        ForgeChatMemoryStore session = ForgeChatMemoryStore.builder(provider).scope(Scope.SESSION).build();
        project.updateMessages("c", List.of(UserMessage.from("kept")));
        session.updateMessages("c", List.of(UserMessage.from("for now")));

        assertThat(provider.get(project.keyOf("c"), Scope.SESSION)).isPresent();
        provider.endSession();
        assertThat(session.getMessages("c")).isEmpty();
        assertThat(project.getMessages("c")).containsExactly(UserMessage.from("kept"));
    }

    @Test
    void a_conversation_over_the_value_limit_is_refused_and_the_stored_one_stays() {
        MemoryProvider provider = open();
        ForgeChatMemoryStore store = ForgeChatMemoryStore.of(provider);
        store.updateMessages("big", List.of(UserMessage.from("small")));
        String huge = "y".repeat((int) provider.limits().maxValueBytes());
        assertThatThrownBy(() -> store.updateMessages("big", List.of(UserMessage.from(huge))))
                .isInstanceOf(ValueTooLargeException.class);
        assertThat(store.getMessages("big")).containsExactly(UserMessage.from("small"));
    }
}
