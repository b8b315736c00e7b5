package dev.forge.memory.support;

import dev.forge.memory.EntryRules;
import dev.forge.memory.Keys;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A write that has passed every rule: what a provider's {@code set} builds first, before touching its store.
 * The only way to get one is {@link #validate}, so holding one proves the input was checked.
 */
public final class EntryWrite {

    private final String key;
    private final String value;
    private final Scope scope;
    private final List<String> tags;
    private final Map<String, Object> metadata;

    private EntryWrite(String key, String value, Scope scope, List<String> tags, Map<String, Object> metadata) {
        this.key = key;
        this.value = value;
        this.scope = scope;
        this.tags = tags;
        this.metadata = metadata;
    }

    /**
     * Checks every rule (key, value size and encoding, tags, metadata) and normalises tags and metadata.
     *
     * @throws NullPointerException                    for a null key or scope
     * @throws dev.forge.memory.InvalidKeyException    for a bad key
     * @throws dev.forge.memory.ValueTooLargeException for a value over the limit
     * @throws dev.forge.memory.InvalidEntryException  for a null value, bad tags or bad metadata
     */
    public static EntryWrite validate(String key, String value, Scope scope, Collection<String> tags,
                                      Map<String, ?> metadata, Limits limits) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(scope, "scope");
        Keys.validate(key);
        EntryRules.checkValue(value, key, limits);
        List<String> normalizedTags = EntryRules.normalizeTags(tags, key, limits);
        Map<String, Object> normalizedMetadata = EntryRules.normalizeMetadata(metadata, key);
        EntryRules.checkMetadataSize(normalizedMetadata, key, limits);
        return new EntryWrite(key, value, scope, normalizedTags, normalizedMetadata);
    }

    /** The valid key. */
    public String key() {
        return key;
    }

    /** The valid value. */
    public String value() {
        return value;
    }

    /** The scope. */
    public Scope scope() {
        return scope;
    }

    /** The normalised tags: ordered, without duplicates, immutable. */
    public List<String> tags() {
        return tags;
    }

    /** The normalised metadata: sorted, deeply immutable. */
    public Map<String, Object> metadata() {
        return metadata;
    }

    /**
     * The entry this write stores, given what was there before and the time now: version 1 and
     * {@code createdAt = now} for a new key, otherwise the previous {@code createdAt} and version + 1.
     * {@code updatedAt} never goes back before the previous one, even if the clock does.
     */
    public MemoryEntry toEntry(Optional<MemoryEntry> previous, Instant now) {
        Instant at = now.truncatedTo(ChronoUnit.MILLIS);
        if (previous.isEmpty()) {
            return new MemoryEntry(key, value, scope, tags, metadata, at, at, 1);
        }
        MemoryEntry before = previous.get();
        Instant updated = at.isBefore(before.updatedAt()) ? before.updatedAt() : at;
        return new MemoryEntry(key, value, scope, tags, metadata, before.createdAt(), updated, before.version() + 1);
    }

    @Override
    public String toString() {
        return "EntryWrite[" + scope.id() + ":" + key + ", " + value.length() + " chars]";
    }
}
