package dev.forge.memory.markdown.internal;

import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.EntryRules;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Between {@link MemoryEntry}s and {@link MemoryFile}s. The front-matter fields {@code category} and {@code trigger}
 * are the metadata entries of those names when they are text: written as fields, read back into the metadata, so
 * that an agent sets them like any metadata and a person sees them as the format names them.
 */
final class Entries {

    /** The metadata key shown as the {@code category} field. */
    static final String CATEGORY = "category";
    /** The metadata key shown as the {@code trigger} field. */
    static final String TRIGGER = "trigger";

    private Entries() {
    }

    /** The scope a front-matter or related-item scope names, ignoring case. */
    static Optional<Scope> scope(String text) {
        for (Scope scope : Scope.values()) {
            if (scope.name().equalsIgnoreCase(text.trim())) {
                return Optional.of(scope);
            }
        }
        return Optional.empty();
    }

    /** The front-matter form of a scope. */
    static String scopeName(Scope scope) {
        return scope.name().toLowerCase(Locale.ROOT);
    }

    /**
     * The entry a file holds, in the scope of its directory (which wins over its {@code scope} field: a file moved by
     * hand belongs where it is now). Duplicate tags are dropped; a {@code created_at} after {@code updated_at} (a
     * hand edit) is taken as {@code updated_at}.
     *
     * @throws dev.forge.memory.InvalidEntryException if a tag or the metadata breaks the entry rules
     */
    static MemoryEntry toEntry(MemoryFile file, Scope scope) {
        Map<String, Object> metadata = new LinkedHashMap<>(file.metadata());
        file.category().ifPresent(category -> metadata.putIfAbsent(CATEGORY, category));
        file.trigger().ifPresent(trigger -> metadata.putIfAbsent(TRIGGER, trigger));
        List<String> tags = EntryRules.normalizeTags(file.tags(), file.key(), Limits.DEFAULT);
        Instant created = file.createdAt().isAfter(file.updatedAt()) ? file.updatedAt() : file.createdAt();
        return new MemoryEntry(file.key(), file.body(), scope, tags, metadata, created, file.updatedAt(), file.version());
    }

    /** The file of a new version holding {@code entry}. */
    static MemoryFile toFile(MemoryEntry entry, String id, Optional<String> supersedes, List<RelatedItem> related,
            String sessionId, Map<String, Object> extra) {
        return toFile(entry, id, supersedes, related, sessionId, List.of(), Optional.empty(), extra);
    }

    /**
     * The file of a version holding {@code entry}, with the bookkeeping of a restore: what it {@code replaces} (on
     * the head) or the head that {@code committedBy} names (on the older versions); see {@link MemoryFile}.
     */
    static MemoryFile toFile(MemoryEntry entry, String id, Optional<String> supersedes, List<RelatedItem> related,
            String sessionId, List<String> replaces, Optional<String> committedBy, Map<String, Object> extra) {
        Map<String, Object> metadata = new LinkedHashMap<>(entry.metadata());
        Optional<String> category = text(metadata, CATEGORY);
        Optional<String> trigger = text(metadata, TRIGGER);
        return new MemoryFile(id, entry.key(), entry.createdAt(), entry.updatedAt(), entry.version(),
                Optional.of(scopeName(entry.scope())), category, entry.tags(), metadata, supersedes, related,
                Optional.of(sessionId), trigger, false, replaces, committedBy, extra, entry.value());
    }

    private static Optional<String> text(Map<String, Object> metadata, String key) {
        if (metadata.get(key) instanceof String text) {
            metadata.remove(key);
            return Optional.of(text);
        }
        return Optional.empty();
    }

    /** The tombstone that ends the life of {@code head}: the next version, empty, marked deleted. */
    static MemoryFile tombstone(MemoryFile head, String id, Instant now, String sessionId) {
        Instant at = now.isBefore(head.updatedAt()) ? head.updatedAt() : now;
        return new MemoryFile(id, head.key(), head.createdAt().isAfter(at) ? at : head.createdAt(), at,
                head.version() + 1, head.scope(), Optional.empty(), List.of(), Map.of(), Optional.of(head.id()),
                List.of(), Optional.of(sessionId), Optional.empty(), true, List.of(), Optional.empty(), head.extra(), "");
    }

    /** {@code file} with another body. */
    static MemoryFile withBody(MemoryFile file, String body) {
        return copy(file, file.related(), file.committedBy(), body);
    }

    /** {@code file} with other relations. */
    static MemoryFile withRelated(MemoryFile file, List<RelatedItem> related) {
        return copy(file, List.copyOf(related), file.committedBy(), file.body());
    }

    /** {@code file}, a restored version, as an ordinary version once the head of its restore is written. */
    static MemoryFile committed(MemoryFile file) {
        return copy(file, file.related(), Optional.empty(), file.body());
    }

    private static MemoryFile copy(MemoryFile file, List<RelatedItem> related, Optional<String> committedBy,
            String body) {
        return new MemoryFile(file.id(), file.key(), file.createdAt(), file.updatedAt(), file.version(), file.scope(),
                file.category(), file.tags(), file.metadata(), file.supersedes(), related, file.sessionId(),
                file.trigger(), file.tombstone(), file.replaces(), committedBy, file.extra(), body);
    }
}
