package dev.forge.memory;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One stored memory: an immutable value.
 *
 * <p>Timestamps are kept to the millisecond, so that every backend round-trips them exactly.
 * {@code tags} is ordered and free of duplicates; {@code metadata} is a JSON-compatible, deeply
 * immutable map (see {@link dev.forge.memory.EntryRules#normalizeMetadata}). The constructor checks these
 * structural rules and throws {@link IllegalArgumentException} (or {@link InvalidEntryException} for metadata)
 * when they are broken; a provider rebuilding entries from stored data reports that as a
 * {@link CorruptEntryException}.
 *
 * @param key       the key, stored verbatim
 * @param value     the text of the memory, usually markdown; may be empty
 * @param scope     the scope it lives in
 * @param tags      ordered tags without duplicates
 * @param metadata  JSON-compatible metadata, keys sorted
 * @param createdAt when the key was first written (kept across overwrites)
 * @param updatedAt when this version was written
 * @param version   1 on first write, +1 on every overwrite
 */
public record MemoryEntry(
        String key,
        String value,
        Scope scope,
        List<String> tags,
        Map<String, Object> metadata,
        Instant createdAt,
        Instant updatedAt,
        long version) {

    /** Checks the structural invariants and makes defensive, immutable copies. */
    public MemoryEntry {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(scope, "scope");
        tags = List.copyOf(Objects.requireNonNull(tags, "tags"));
        if (new java.util.HashSet<>(tags).size() != tags.size()) {
            throw new IllegalArgumentException("tags of key '" + key + "' contain duplicates: " + tags);
        }
        metadata = dev.forge.memory.EntryRules.normalizeMetadata(Objects.requireNonNull(metadata, "metadata"), key);
        createdAt = Objects.requireNonNull(createdAt, "createdAt").truncatedTo(ChronoUnit.MILLIS);
        updatedAt = Objects.requireNonNull(updatedAt, "updatedAt").truncatedTo(ChronoUnit.MILLIS);
        if (version < 1) {
            throw new IllegalArgumentException("version must be >= 1, was " + version + " for key '" + key + "'");
        }
        if (updatedAt.isBefore(createdAt)) {
            throw new IllegalArgumentException("updatedAt " + updatedAt + " is before createdAt " + createdAt + " for key '" + key + "'");
        }
    }

    /** The entry's address: its key and scope. */
    public EntryRef ref() {
        return new EntryRef(key, scope);
    }

    /** Whether this entry carries the given tag. */
    public boolean hasTag(String tag) {
        return tags.contains(tag);
    }

    /** Same content (key, scope, value, tags, metadata), ignoring timestamps and version. */
    public boolean sameContentAs(MemoryEntry other) {
        return key.equals(other.key) && scope == other.scope && value.equals(other.value)
                && tags.equals(other.tags) && metadata.equals(other.metadata);
    }

    /** Shows the key, scope and version but never the value, which may hold secrets. */
    @Override
    public String toString() {
        return "MemoryEntry[" + scope.id() + ":" + key + " v" + version + ", " + value.length() + " chars, tags=" + tags + "]";
    }
}
