package dev.forge.memory.spi;

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
 *
 * @param key      a valid key
 * @param value    a valid value
 * @param scope    the scope
 * @param tags     normalised tags
 * @param metadata normalised metadata
 */
public record EntryWrite(String key, String value, Scope scope, List<String> tags, Map<String, Object> metadata) {

    /** Rejects nulls; use {@link #validate} to check the rules. */
    public EntryWrite {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(scope, "scope");
        tags = List.copyOf(tags);
        metadata = Objects.requireNonNull(metadata, "metadata");
    }

    /**
     * Checks every rule (key, value size and encoding, tags, metadata) and normalises tags and metadata.
     *
     * @throws dev.forge.memory.InvalidKeyException    for a bad key
     * @throws dev.forge.memory.ValueTooLargeException for a value over the limit
     * @throws dev.forge.memory.InvalidEntryException  for bad tags or metadata
     */
    public static EntryWrite validate(String key, String value, Scope scope, Collection<String> tags,
                                      Map<String, ?> metadata, Limits limits) {
        Keys.validate(key);
        if (scope == null) {
            throw new dev.forge.memory.InvalidRequestException("The scope of key '" + Keys.abbreviate(key) + "' is null.");
        }
        EntryRules.checkValue(value, key, limits);
        List<String> normalizedTags = EntryRules.normalizeTags(tags, key, limits);
        Map<String, Object> normalizedMetadata = EntryRules.normalizeMetadata(metadata, key);
        EntryRules.checkMetadataSize(normalizedMetadata, key, limits);
        return new EntryWrite(key, value, scope, normalizedTags, normalizedMetadata);
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
}
