package dev.forge.memory.context;

import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The learning-capture pattern: an insight worth keeping across projects, in GLOBAL scope under
 * {@code learning:<topic with white space as ->}, tagged {@code learning} and the topic, with the context it was
 * learnt in as metadata {@code context}. Capturing the same topic again replaces the insight (a new version).
 */
public final class LearningCapture {

    /** The key prefix of learnings. */
    public static final String PREFIX = "learning:";

    private LearningCapture() {
    }

    /**
     * Stores a learning.
     *
     * @param topic   what it is about; white space runs become {@code -} in the key; the trimmed topic is a tag
     * @param insight what was learnt
     * @param context where or how it was learnt; may be empty
     * @throws InvalidRequestException if the topic or insight is blank
     */
    public static Learning capture(MemoryProvider provider, String topic, String insight, String context) {
        if (Objects.requireNonNull(topic, "topic").isBlank()) {
            throw new InvalidRequestException("A learning needs a topic.");
        }
        if (Objects.requireNonNull(insight, "insight").isBlank()) {
            throw new InvalidRequestException("A learning about '" + topic.strip() + "' needs an insight.");
        }
        Objects.requireNonNull(context, "context");
        MemoryEntry entry = provider.set(key(topic), insight, Scope.GLOBAL, List.of("learning", topic.strip()),
                Map.of("context", context));
        return read(entry).orElseThrow();
    }

    /** The key a topic is stored under: {@code learning:} and the trimmed topic with white space runs as {@code -}. */
    public static String key(String topic) {
        return PREFIX + topic.strip().replaceAll("\\s+", "-");
    }

    /** The learning about {@code topic}, if captured. */
    public static Optional<Learning> find(MemoryProvider provider, String topic) {
        return provider.get(key(topic), Scope.GLOBAL).flatMap(LearningCapture::read);
    }

    /** The learnings, most recently updated first; at most {@code limit}. */
    public static List<Learning> recent(MemoryProvider provider, int limit) {
        List<Learning> learnings = new ArrayList<>();
        for (MemoryEntry entry : provider.query(Query.builder().pattern(PREFIX + "*").scopes(Scope.GLOBAL)
                .order(Query.Order.UPDATED_DESC).limit(limit).build())) {
            read(entry).ifPresent(learnings::add);
        }
        return learnings;
    }

    /**
     * The learning an entry holds, if it is one: a {@code learning:} key in GLOBAL scope. The topic is the second tag
     * when there is one, else the key's part after the prefix; the context is metadata {@code context} or empty.
     */
    public static Optional<Learning> read(MemoryEntry entry) {
        if (!entry.key().startsWith(PREFIX) || entry.scope() != Scope.GLOBAL) {
            return Optional.empty();
        }
        String topic = entry.tags().size() > 1 && entry.tags().get(0).equals("learning")
                ? entry.tags().get(1) : entry.key().substring(PREFIX.length());
        String context = entry.metadata().get("context") instanceof String text ? text : "";
        return Optional.of(new Learning(entry.key(), topic, entry.value(), context));
    }

    /**
     * A captured learning.
     *
     * @param key     its key
     * @param topic   what it is about
     * @param insight what was learnt
     * @param context where or how; may be empty
     */
    public record Learning(String key, String topic, String insight, String context) {

        /** Rejects nulls. */
        public Learning {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(topic, "topic");
            Objects.requireNonNull(insight, "insight");
            Objects.requireNonNull(context, "context");
        }
    }
}
