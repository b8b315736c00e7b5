package dev.forge.memory.langchain4j;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A LangChain4j {@link ChatMemoryStore} over any forge-memory {@link MemoryProvider}: one entry per conversation,
 * holding every message (system, user with text and image URLs, AI with tool calls, tool results) as LangChain4j's
 * own {@link ChatMessageSerializer} writes them, so a conversation comes back exactly as it was stored.
 *
 * <p>The key of a conversation is derived from its memory id: {@code langchain4j/chat/<class of the id>=<id>}, or a
 * SHA-256 digest of the id in place of {@code <id>} when the id's text cannot be part of a key (too long, control
 * characters); two different ids never share a key, and the id's class is part of it ({@code 1} and {@code "1"}
 * are two conversations). An id's {@code toString()} must be stable across runs for the conversation to be found
 * again.
 *
 * <p>The scope defaults to {@link Scope#PROJECT}: a conversation is worth remembering across restarts (SESSION
 * entries go when the session ends) and belongs to the project that had it (GLOBAL would show it to every project).
 * A conversation larger than the provider's value limit is refused with
 * {@link dev.forge.memory.ValueTooLargeException}, and the stored one stays as it was.
 */
public final class ForgeChatMemoryStore implements ChatMemoryStore {

    /** The default key prefix of conversations. */
    public static final String DEFAULT_PREFIX = "langchain4j/chat/";
    /** The tag every conversation entry carries. */
    public static final String TAG = "langchain4j-chat";

    private final MemoryProvider provider;
    private final Scope scope;
    private final ConversationKeys keys;

    private ForgeChatMemoryStore(Builder builder) {
        this.provider = Objects.requireNonNull(builder.provider, "provider");
        this.scope = builder.scope;
        this.keys = new ConversationKeys(builder.prefix);
    }

    /** A store over {@code provider} in the PROJECT scope, with the default key prefix. */
    public static ForgeChatMemoryStore of(MemoryProvider provider) {
        return builder(provider).build();
    }

    /** A builder over {@code provider}: PROJECT scope, prefix {@value #DEFAULT_PREFIX}. */
    public static Builder builder(MemoryProvider provider) {
        return new Builder(provider);
    }

    /** The scope conversations are kept in. */
    public Scope scope() {
        return scope;
    }

    /** The key the conversation of {@code memoryId} is stored under. */
    public String keyOf(Object memoryId) {
        return keys.key(memoryId);
    }

    @Override
    public List<ChatMessage> getMessages(Object memoryId) {
        String key = keys.key(memoryId);
        Optional<MemoryEntry> entry = provider.get(key, scope);
        if (entry.isEmpty()) {
            return List.of();
        }
        try {
            return ChatMessageDeserializer.messagesFromJson(entry.get().value());
        } catch (RuntimeException e) {
            throw new CorruptEntryException("The conversation stored under '" + key + "' (" + scope.id()
                    + ") is not a list of LangChain4j chat messages: " + e.getMessage()
                    + ". Delete it with deleteMessages, or repair the entry.", e);
        }
    }

    @Override
    public void updateMessages(Object memoryId, List<ChatMessage> messages) {
        String key = keys.key(memoryId);
        Objects.requireNonNull(messages, "messages");
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("memory_id", memoryId.toString());
        metadata.put("memory_id_type", memoryId.getClass().getName());
        metadata.put("messages", messages.size());
        provider.set(key, ChatMessageSerializer.messagesToJson(messages), scope, List.of(TAG), metadata);
    }

    @Override
    public void deleteMessages(Object memoryId) {
        provider.delete(keys.key(memoryId), scope);
    }

    @Override
    public String toString() {
        return "ForgeChatMemoryStore[" + provider.name() + ", " + scope.id() + ", prefix=" + keys.prefix() + "]";
    }

    /** Builds a {@link ForgeChatMemoryStore}. */
    public static final class Builder {
        private final MemoryProvider provider;
        private Scope scope = Scope.PROJECT;
        private String prefix = DEFAULT_PREFIX;

        private Builder(MemoryProvider provider) {
            this.provider = Objects.requireNonNull(provider, "provider");
        }

        /** The scope conversations are kept in; default PROJECT. */
        public Builder scope(Scope scope) {
            this.scope = Objects.requireNonNull(scope, "scope");
            return this;
        }

        /** The prefix of every conversation key; default {@value ForgeChatMemoryStore#DEFAULT_PREFIX}. */
        public Builder prefix(String prefix) {
            this.prefix = Objects.requireNonNull(prefix, "prefix");
            return this;
        }

        /**
         * The store.
         *
         * @throws dev.forge.memory.InvalidKeyException if the prefix could not start a key
         */
        public ForgeChatMemoryStore build() {
            return new ForgeChatMemoryStore(this);
        }
    }
}
