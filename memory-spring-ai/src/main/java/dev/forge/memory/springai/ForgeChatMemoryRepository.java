package dev.forge.memory.springai;

import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.KeyPattern;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.springai.internal.IdKeys;
import dev.forge.memory.springai.internal.MessageCodec;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.messages.Message;

/**
 * Spring AI's {@link ChatMemoryRepository} over any forge-memory {@link MemoryProvider}: one memory per conversation.
 *
 * <p>The memory's key is the key prefix ({@code chat:} by default) followed by the conversation id, with the
 * characters keys cannot hold escaped so that two ids never share a key; an id whose key would be over 512
 * characters is refused with an {@link InvalidRequestException}. Its value is one JSON document with every message in
 * full: user, assistant (with its tool calls and media), tool responses and system messages, each with its metadata,
 * read back equal to what was saved. The memory carries the tag {@value #TAG} and the metadata {@code conversation_id}
 * and {@code messages} (the count), so people and other tools can find it.
 *
 * <p>{@link #saveAll} replaces the conversation in one write (an empty list deletes it), so a reader sees the old
 * messages or the new ones, never a mix. The scope (default {@link Scope#PROJECT}) says who sees the conversations:
 * {@link Scope#SESSION} ones end with the provider's session. The repository does not own the provider: close the
 * provider yourself.
 */
public final class ForgeChatMemoryRepository implements ChatMemoryRepository {

    /** The default key prefix. */
    public static final String DEFAULT_KEY_PREFIX = "chat:";
    /** The tag every conversation memory carries. */
    public static final String TAG = "spring-ai-chat";

    private final MemoryProvider provider;
    private final Scope scope;
    private final String keyPrefix;

    private ForgeChatMemoryRepository(Builder builder) {
        this.provider = builder.provider;
        this.scope = builder.scope;
        this.keyPrefix = builder.keyPrefix;
    }

    /** A repository over {@code provider}: scope PROJECT, key prefix {@value #DEFAULT_KEY_PREFIX}. */
    public static ForgeChatMemoryRepository of(MemoryProvider provider) {
        return builder(provider).build();
    }

    /** A builder for a repository over {@code provider}. */
    public static Builder builder(MemoryProvider provider) {
        return new Builder(provider);
    }

    /** The memory key of a conversation. */
    public String key(String conversationId) {
        return IdKeys.key(keyPrefix, conversationId, "conversation id");
    }

    /** The ids of the stored conversations, in key order. */
    @Override
    public List<String> findConversationIds() {
        Query query = Query.builder().pattern(KeyPattern.tag(TAG)).scopes(scope).build();
        return provider.query(query).stream()
                .filter(entry -> entry.key().startsWith(keyPrefix))
                .map(entry -> conversationId(entry))
                .toList();
    }

    private static String conversationId(MemoryEntry entry) {
        return entry.metadata().get("conversation_id") instanceof String id ? id : MessageCodec.conversationId(entry.key(), entry.value());
    }

    /** The messages of a conversation, in order; empty if there is none. */
    @Override
    public List<Message> findByConversationId(String conversationId) {
        String key = key(conversationId);
        Optional<MemoryEntry> entry = provider.get(key, scope);
        return entry.map(e -> MessageCodec.read(key, e.value())).orElseGet(List::of);
    }

    /** Replaces the messages of a conversation with {@code messages}; an empty list deletes the conversation. */
    @Override
    public void saveAll(String conversationId, List<Message> messages) {
        Objects.requireNonNull(messages, "messages");
        String key = key(conversationId);
        if (messages.isEmpty()) {
            provider.delete(key, scope);
            return;
        }
        String value = MessageCodec.write(conversationId, messages);
        provider.set(key, value, scope, List.of(TAG), Map.of("conversation_id", conversationId, "messages", messages.size()));
    }

    /** Deletes a conversation; deleting a missing one does nothing. */
    @Override
    public void deleteByConversationId(String conversationId) {
        provider.delete(key(conversationId), scope);
    }

    /** Builds a {@link ForgeChatMemoryRepository}. */
    public static final class Builder {
        private final MemoryProvider provider;
        private Scope scope = Scope.PROJECT;
        private String keyPrefix = DEFAULT_KEY_PREFIX;

        private Builder(MemoryProvider provider) {
            this.provider = Objects.requireNonNull(provider, "provider");
        }

        /** The scope conversations are kept in (default PROJECT). */
        public Builder scope(Scope scope) {
            this.scope = Objects.requireNonNull(scope, "scope");
            return this;
        }

        /** The prefix of every conversation's key (default {@value ForgeChatMemoryRepository#DEFAULT_KEY_PREFIX}); not empty. */
        public Builder keyPrefix(String keyPrefix) {
            if (Objects.requireNonNull(keyPrefix, "keyPrefix").isEmpty()) {
                throw new InvalidRequestException("The key prefix of a chat memory repository must not be empty: "
                        + "it keeps conversations apart from the other memories.");
            }
            this.keyPrefix = keyPrefix;
            return this;
        }

        /** Builds the repository. */
        public ForgeChatMemoryRepository build() {
            return new ForgeChatMemoryRepository(this);
        }
    }
}
