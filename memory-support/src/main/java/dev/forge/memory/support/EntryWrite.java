package dev.forge.memory.support;

import dev.forge.memory.EntryRef;
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
     *
     * @throws VersionOverflowException if the previous version is {@link Long#MAX_VALUE}
     */
    public MemoryEntry toEntry(Optional<MemoryEntry> previous, Instant now) {
        return toEntry(previous, 0, now);
    }

    /**
     * The entry this write stores over the live entry {@code live}, if any, when the highest version the key has taken
     * (tombstones included) is {@code lastVersion}: the one version-stamping rule of every provider. Over a live entry,
     * its {@code createdAt} and its version + 1, with {@code updatedAt} never before the live one's even if the clock
     * goes back; with none, {@code createdAt = now} and the version after {@code lastVersion} (1 for a new key or for
     * a backend whose deletions leave no tombstone, which passes 0).
     *
     * @throws VersionOverflowException if the version would pass {@link Long#MAX_VALUE}
     */
    public MemoryEntry toEntry(Optional<MemoryEntry> live, long lastVersion, Instant now) {
        Instant at = now.truncatedTo(ChronoUnit.MILLIS);
        EntryRef ref = new EntryRef(key, scope);
        if (live.isEmpty()) {
            return new MemoryEntry(key, value, scope, tags, metadata, at, at, nextVersion(ref, lastVersion));
        }
        MemoryEntry before = live.get();
        Instant updated = at.isBefore(before.updatedAt()) ? before.updatedAt() : at;
        return new MemoryEntry(key, value, scope, tags, metadata, before.createdAt(), updated,
                nextVersion(ref, before.version()));
    }

    /**
     * The version after {@code version} for the key {@code ref}: of an overwrite, or of the tombstone a deletion
     * leaves. Versions count on past {@link dev.forge.memory.EntryRules#MAX_VERSION} (the largest a restore accepts)
     * and stop at {@link Long#MAX_VALUE}.
     *
     * @throws VersionOverflowException naming the key, if {@code version} is {@link Long#MAX_VALUE}
     */
    public static long nextVersion(EntryRef ref, long version) {
        Objects.requireNonNull(ref, "ref");
        if (version == Long.MAX_VALUE) {
            throw new VersionOverflowException(ref, version);
        }
        return version + 1;
    }

    @Override
    public String toString() {
        return "EntryWrite[" + scope.id() + ":" + key + ", " + value.length() + " chars]";
    }
}
