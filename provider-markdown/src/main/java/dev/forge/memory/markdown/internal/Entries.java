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

    /**
     * The scope a front-matter or related-item scope names, ignoring case: {@code project}, {@code global},
     * {@code session}, and the seeds' words, {@code repo} and (seed 003) {@code default} for PROJECT, {@code user} for
     * GLOBAL.
     */
    static Optional<Scope> scope(String text) {
        String word = text.trim().toLowerCase(Locale.ROOT);
        switch (word) {
            case "repo", "default" -> {
                return Optional.of(Scope.PROJECT);
            }
            case "user" -> {
                return Optional.of(Scope.GLOBAL);
            }
            default -> {
                for (Scope scope : Scope.values()) {
                    if (scope.name().equalsIgnoreCase(word)) {
                        return Optional.of(scope);
                    }
                }
                return Optional.empty();
            }
        }
    }

    /**
     * The front-matter form of a scope: seed 000's {@code repo} and {@code user} for PROJECT and GLOBAL, so that the
     * ADR's own parser places the files; {@code session}, which it does not have, for SESSION.
     */
    static String scopeName(Scope scope) {
        return switch (scope) {
            case PROJECT -> "repo";
            case GLOBAL -> "user";
            case SESSION -> "session";
        };
    }

    /**
     * {@code file}, the next version of {@code head}, in the words of its chain: the head's {@code scope} word when it
     * names the same scope (seed 003's {@code default} stays), and the head's {@code category} when the write gave
     * none, as seed 000's {@code NewVersion} keeps it.
     */
    static MemoryFile continuing(MemoryFile file, MemoryFile head) {
        Optional<String> scope = head.scope().filter(word -> scope(word).equals(file.scope().flatMap(Entries::scope)))
                .or(file::scope);
        return copy(file, file.key(), scope, file.category().or(head::category), file.related(), file.committedBy(),
                file.body());
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
        // Fields of other tools (seed 003's 'references') travel with the entry, into exports too; 'timestamp' is the
        // entry's own time.
        file.extra().forEach((name, value) -> {
            if (!name.equals(FrontMatterFields.TIMESTAMP)) {
                metadata.putIfAbsent(name, value);
            }
        });
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
        Map<String, Object> fields = new LinkedHashMap<>(extra);
        for (Map.Entry<String, Object> field : fields.entrySet()) {
            if (field.getKey().equals(FrontMatterFields.TIMESTAMP)) {
                field.setValue(MemoryFileCodec.timestamp(entry.updatedAt())); // the time of this version
            } else if (metadata.containsKey(field.getKey())) {
                field.setValue(metadata.remove(field.getKey())); // shown as metadata when read: written back here
            }
        }
        return new MemoryFile(id, entry.key(), entry.createdAt(), entry.updatedAt(), entry.version(),
                Optional.of(scopeName(entry.scope())), category, entry.tags(), metadata, supersedes, related,
                Optional.of(sessionId), trigger, false, replaces, committedBy, fields, entry.value());
    }

    /** {@code file} with the key of its chain, for a file that names none (see {@link DerivedKeys}). */
    static MemoryFile withKey(MemoryFile file, String key) {
        return copy(file, key, file.scope(), file.category(), file.related(), file.committedBy(), file.body());
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
        return copy(file, file.key(), file.scope(), file.category(), related, committedBy, body);
    }

    private static MemoryFile copy(MemoryFile file, String key, Optional<String> scope, Optional<String> category,
            List<RelatedItem> related, Optional<String> committedBy, String body) {
        return new MemoryFile(file.id(), key, file.createdAt(), file.updatedAt(), file.version(), scope, category,
                file.tags(), file.metadata(), file.supersedes(), related, file.sessionId(), file.trigger(),
                file.tombstone(), file.replaces(), committedBy, file.extra(), body);
    }
}
