package dev.forge.memory.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.util.MimeTypeUtils;

/**
 * What a {@link org.springframework.ai.chat.memory.ChatMemoryRepository} must do, as Spring AI's own repositories
 * (in-memory, JDBC, Cassandra, Neo4j) do it; Spring AI publishes no shared test base for repositories, so these
 * are the equivalent tests, run against each real provider by a subclass.
 */
abstract class ChatMemoryRepositoryContract {

    @TempDir
    Path directory;

    MemoryProvider provider;
    ForgeChatMemoryRepository repository;

    /** The provider's name, as configured. */
    abstract String providerName();

    @BeforeEach
    void open() {
        provider = Providers.open(providerName(), directory);
        repository = ForgeChatMemoryRepository.of(provider);
    }

    @AfterEach
    void close() {
        provider.close();
    }

    static List<Message> conversation() {
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("list", List.of(1, 2L, 3.5, "x", true));
        nested.put("decimal", new BigDecimal("1.10"));
        Map<String, Object> assistantMetadata = new LinkedHashMap<>();
        assistantMetadata.put("id", "chatcmpl-1");
        assistantMetadata.put("index", 0);
        assistantMetadata.put("tokens", 12L);
        assistantMetadata.put("temperature", 0.7f);
        assistantMetadata.put("big", new BigInteger("123456789012345678901234567890"));
        assistantMetadata.put("nested", nested);
        assistantMetadata.put("finishReason", "TOOL_CALLS");
        assistantMetadata.put("refusal", "");
        return List.of(
                SystemMessage.builder().text("You are a helpful agent.").metadata(Map.of("origin", "config")).build(),
                UserMessage.builder().text("What is the weather in Sofia?").metadata(Map.of("user", "ada")).build(),
                AssistantMessage.builder().content("").properties(assistantMetadata).toolCalls(List.of(
                        new AssistantMessage.ToolCall("call-1", "function", "weather", "{\"city\":\"Sofia\"}"),
                        new AssistantMessage.ToolCall("call-2", "function", "time", "{}"))).build(),
                ToolResponseMessage.builder().responses(List.of(
                        new ToolResponseMessage.ToolResponse("call-1", "weather", "{\"celsius\":21}"),
                        new ToolResponseMessage.ToolResponse("call-2", "time", "12:00"))).metadata(Map.of()).build(),
                new AssistantMessage("It is 21 °C in Sofia at noon."));
    }

    @Test
    void an_empty_repository_has_no_conversations() {
        assertThat(repository.findConversationIds()).isEmpty();
        assertThat(repository.findByConversationId("none")).isEmpty();
    }

    @Test
    void messages_of_every_type_come_back_equal_with_tool_calls_responses_and_metadata() {
        List<Message> saved = conversation();
        repository.saveAll("c1", saved);

        List<Message> found = repository.findByConversationId("c1");
        assertThat(found).isEqualTo(saved);
        assertThat(found).extracting(Message::getMessageType).extracting(Enum::name)
                .containsExactly("SYSTEM", "USER", "ASSISTANT", "TOOL", "ASSISTANT");
        AssistantMessage withCalls = (AssistantMessage) found.get(2);
        assertThat(withCalls.getToolCalls()).isEqualTo(((AssistantMessage) saved.get(2)).getToolCalls());
        assertThat(withCalls.getMetadata().get("tokens")).isInstanceOf(Long.class);
        assertThat(withCalls.getMetadata().get("temperature")).isEqualTo(0.7f);
        assertThat(((Map<?, ?>) withCalls.getMetadata().get("nested")).get("decimal")).isEqualTo(new BigDecimal("1.10"));
        assertThat(((ToolResponseMessage) found.get(3)).getResponses()).isEqualTo(((ToolResponseMessage) saved.get(3)).getResponses());
    }

    @Test
    void media_of_user_and_assistant_messages_come_back_with_their_bytes_urls_ids_and_names() {
        byte[] png = "not really a png".getBytes(StandardCharsets.UTF_8);
        Media bytes = Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG).data(png).id("m1").name("chart").build();
        Media url = Media.builder().mimeType(MimeTypeUtils.IMAGE_JPEG).data(java.net.URI.create("https://example.com/a.jpg")).name("photo").build();
        repository.saveAll("media", List.of(
                UserMessage.builder().text("look").media(List.of(bytes, url)).build(),
                AssistantMessage.builder().content("drawn").media(List.of(bytes)).build()));

        List<Message> found = repository.findByConversationId("media");
        List<Media> userMedia = ((UserMessage) found.get(0)).getMedia();
        assertThat(userMedia).hasSize(2);
        assertThat(userMedia.get(0).getDataAsByteArray()).isEqualTo(png);
        assertThat(userMedia.get(0).getMimeType()).isEqualTo(MimeTypeUtils.IMAGE_PNG);
        assertThat(userMedia.get(0).getId()).isEqualTo("m1");
        assertThat(userMedia.get(0).getName()).isEqualTo("chart");
        assertThat(userMedia.get(1).getData()).isEqualTo("https://example.com/a.jpg");
        assertThat(userMedia.get(1).getName()).isEqualTo("photo");
        assertThat(((AssistantMessage) found.get(1)).getMedia().get(0).getDataAsByteArray()).isEqualTo(png);
    }

    @Test
    void save_all_replaces_the_conversation_and_an_empty_list_deletes_it() {
        repository.saveAll("c1", conversation());
        List<Message> shorter = List.of(new UserMessage("only this"));
        repository.saveAll("c1", shorter);
        assertThat(repository.findByConversationId("c1")).isEqualTo(shorter);

        repository.saveAll("c1", List.of());
        assertThat(repository.findByConversationId("c1")).isEmpty();
        assertThat(repository.findConversationIds()).doesNotContain("c1");
    }

    @Test
    void ids_that_escape_alike_or_look_like_paths_never_share_a_memory() {
        List<String> ids = List.of("a", "a%", "a%25", "a%0A", "a\n", "a\u2028", "../up", "x/y", "Ünïcode 会话", "a*", "tag:x",
                "\ud83d\ude00");
        for (String id : ids) {
            repository.saveAll(id, List.of(new UserMessage("I am " + id)));
        }
        assertThat(repository.findConversationIds()).containsExactlyInAnyOrderElementsOf(ids);
        for (String id : ids) {
            assertThat(repository.findByConversationId(id)).containsExactly(new UserMessage("I am " + id));
        }
        repository.deleteByConversationId("a%");
        assertThat(repository.findByConversationId("a%25")).hasSize(1);
        assertThat(repository.findConversationIds()).hasSize(ids.size() - 1);
    }

    @Test
    void delete_removes_one_conversation_and_deleting_a_missing_one_does_nothing() {
        repository.saveAll("c1", List.of(new UserMessage("one")));
        repository.saveAll("c2", List.of(new UserMessage("two")));
        repository.deleteByConversationId("c1");
        repository.deleteByConversationId("never");
        assertThat(repository.findConversationIds()).containsExactly("c2");
        assertThat(repository.findByConversationId("c1")).isEmpty();
    }

    @Test
    void conversations_survive_reopening_the_store() {
        repository.saveAll("kept", conversation());
        provider.close();
        provider = Providers.open(providerName(), directory, "session-2");
        repository = ForgeChatMemoryRepository.of(provider);
        assertThat(repository.findConversationIds()).containsExactly("kept");
        assertThat(repository.findByConversationId("kept")).isEqualTo(conversation());
    }

    @Test
    void the_scope_decides_who_sees_a_conversation() {
        ForgeChatMemoryRepository session = ForgeChatMemoryRepository.builder(provider).scope(Scope.SESSION).build();
        session.saveAll("scratch", List.of(new UserMessage("for this session only")));
        assertThat(repository.findConversationIds()).isEmpty();
        assertThat(session.findConversationIds()).containsExactly("scratch");

        try (MemoryProvider other = Providers.open(providerName(), directory.resolve("other"), "session-2")) {
            assertThat(ForgeChatMemoryRepository.builder(other).scope(Scope.SESSION).build().findConversationIds()).isEmpty();
        }
        assertThat(provider.endSession()).isEqualTo(1);
        assertThat(session.findConversationIds()).isEmpty();
    }

    @Test
    void other_memories_and_other_prefixes_are_neither_listed_nor_touched() {
        provider.set("chat:not-a-conversation", "a note", Scope.PROJECT);
        ForgeChatMemoryRepository support = ForgeChatMemoryRepository.builder(provider).keyPrefix("support:").build();
        support.saveAll("c1", List.of(new UserMessage("support")));
        repository.saveAll("c1", List.of(new UserMessage("main")));

        assertThat(repository.findConversationIds()).containsExactly("c1");
        assertThat(support.findByConversationId("c1")).containsExactly(new UserMessage("support"));
        repository.deleteByConversationId("c1");
        assertThat(support.findByConversationId("c1")).containsExactly(new UserMessage("support"));
        assertThat(provider.get("chat:not-a-conversation", Scope.PROJECT)).map(MemoryEntry::value).contains("a note");
    }

    @Test
    void the_stored_memory_is_tagged_and_says_which_conversation_it_holds() {
        repository.saveAll("c1", conversation());
        MemoryEntry entry = provider.get("chat:c1", Scope.PROJECT).orElseThrow();
        assertThat(entry.tags()).containsExactly(ForgeChatMemoryRepository.TAG);
        assertThat(entry.metadata()).containsEntry("conversation_id", "c1").containsEntry("messages", 5L);
    }

    @Test
    void metadata_that_is_not_json_is_refused_and_the_stored_conversation_is_kept() {
        repository.saveAll("c1", List.of(new UserMessage("before")));
        List<Message> bad = List.of(UserMessage.builder().text("after").metadata(Map.of("when", Instant.EPOCH)).build());
        assertThatThrownBy(() -> repository.saveAll("c1", bad))
                .isInstanceOf(InvalidEntryException.class)
                .hasMessageContaining("'when'").hasMessageContaining("java.time.Instant");
        assertThat(repository.findByConversationId("c1")).containsExactly(new UserMessage("before"));
    }

    @Test
    void an_id_too_long_empty_or_not_well_formed_is_refused_with_what_to_do() {
        String id = "x".repeat(600);
        assertThatThrownBy(() -> repository.saveAll(id, List.of(new UserMessage("hi"))))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("512");
        assertThatThrownBy(() -> repository.findByConversationId(""))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> repository.saveAll("bad\ud800surrogate", List.of(new UserMessage("hi"))))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("unpaired surrogate");
        assertThat(repository.findConversationIds()).isEmpty();
    }

    @Test
    void a_memory_that_is_not_a_stored_conversation_is_reported_not_misread() {
        provider.set("chat:broken", "hand-edited text", Scope.PROJECT, List.of(ForgeChatMemoryRepository.TAG),
                Map.of("conversation_id", "broken"));
        assertThatThrownBy(() -> repository.findByConversationId("broken"))
                .isInstanceOf(CorruptEntryException.class).hasMessageContaining("chat:broken");
        List<String> ids = new ArrayList<>(repository.findConversationIds());
        assertThat(ids).containsExactly("broken");
    }
}
