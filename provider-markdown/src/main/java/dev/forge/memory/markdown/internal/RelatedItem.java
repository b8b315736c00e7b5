package dev.forge.memory.markdown.internal;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One item of a memory file's {@code related} list: a typed link to another memory, named by version id, by key,
 * or both.
 *
 * @param id           the id of the linked version, if named by id; see {@link MemoryFileCodec#checkId}
 * @param key          the key of the linked memory, if named by key
 * @param scope        the linked memory's scope as written, if not the file's own
 * @param relationship a word such as {@code supersedes}, {@code refines}, {@code contradicts},
 *                     {@code relates-to} or any custom word, as written
 * @param createdAt    when the link was made, if recorded; kept to the millisecond
 * @param extra        keys of the item this version does not know, in file order, kept on rewrite
 */
public record RelatedItem(Optional<String> id, Optional<String> key, Optional<String> scope, String relationship,
        Optional<Instant> createdAt, Map<String, Object> extra) {

    /** The keys of an item this version knows, in the order they are written. */
    public static final List<String> FIELD_NAMES = List.of("id", "key", "scope", "relationship", "created_at");

    /** The relationship of an item that names none, and of an item written as a bare key. */
    public static final String DEFAULT_RELATIONSHIP = "relates-to";

    /** The nesting level of a value inside an item: the related list is level 1, the item level 2. */
    static final int EXTRA_DEPTH = 3;

    private static final Set<String> KNOWN = Set.copyOf(FIELD_NAMES);

    /**
     * Checks and copies every component.
     *
     * @throws NullPointerException     if a component is null
     * @throws IllegalArgumentException if neither id nor key is present, the id is not safe, the relationship is
     *                                  empty, the timestamp is out of range, or {@code extra} uses a known key or
     *                                  holds a value that is not JSON-compatible
     */
    public RelatedItem {
        Objects.requireNonNull(id, "id").ifPresent(MemoryFileCodec::checkId);
        Objects.requireNonNull(key, "key");
        if (id.isEmpty() && key.isEmpty()) {
            throw new IllegalArgumentException("a related item needs an id or a key");
        }
        Objects.requireNonNull(scope, "scope");
        if (Objects.requireNonNull(relationship, "relationship").isEmpty()) {
            throw new IllegalArgumentException("a related item's relationship must not be empty");
        }
        createdAt = Objects.requireNonNull(createdAt, "createdAt")
                .map(at -> MemoryFile.timestamp(at, "related created_at"));
        extra = MemoryFile.copyFields(extra, KNOWN, "related item", EXTRA_DEPTH);
    }

    /** A link to the memory with {@code key}, of the given relationship, with nothing else recorded. */
    public static RelatedItem toKey(String key, String relationship) {
        return new RelatedItem(Optional.empty(), Optional.of(key), Optional.empty(), relationship, Optional.empty(),
                Map.of());
    }
}
