package dev.forge.memory;

import dev.forge.memory.spi.EntryRules;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Conditions shared by {@link Query} and {@link SearchRequest}. All given conditions must hold.
 *
 * @param tags          tags an entry must all carry
 * @param metadata      metadata entries that must be present with equal values
 * @param updatedAfter  only entries updated strictly after this instant
 * @param updatedBefore only entries updated strictly before this instant
 */
public record Filter(List<String> tags, Map<String, Object> metadata, Optional<Instant> updatedAfter, Optional<Instant> updatedBefore) {

    /** No conditions. */
    public static final Filter NONE = new Filter(List.of(), Map.of(), Optional.empty(), Optional.empty());

    /** Copies and normalises (metadata values as {@link EntryRules#normalizeMetadata}, instants to milliseconds). */
    public Filter {
        tags = List.copyOf(new LinkedHashSet<>(Objects.requireNonNull(tags, "tags")));
        metadata = EntryRules.normalizeMetadata(Objects.requireNonNull(metadata, "metadata"), "(filter)");
        updatedAfter = Objects.requireNonNull(updatedAfter, "updatedAfter").map(t -> t.truncatedTo(ChronoUnit.MILLIS));
        updatedBefore = Objects.requireNonNull(updatedBefore, "updatedBefore").map(t -> t.truncatedTo(ChronoUnit.MILLIS));
    }

    /** Whether {@code entry} meets every condition. */
    public boolean matches(MemoryEntry entry) {
        if (!entry.tags().containsAll(tags)) {
            return false;
        }
        for (Map.Entry<String, Object> wanted : metadata.entrySet()) {
            if (!entry.metadata().containsKey(wanted.getKey())
                    || !Objects.equals(entry.metadata().get(wanted.getKey()), wanted.getValue())) {
                return false;
            }
        }
        if (updatedAfter.isPresent() && !entry.updatedAt().isAfter(updatedAfter.get())) {
            return false;
        }
        return updatedBefore.isEmpty() || entry.updatedAt().isBefore(updatedBefore.get());
    }

    /** Whether there are no conditions at all. */
    public boolean isEmpty() {
        return tags.isEmpty() && metadata.isEmpty() && updatedAfter.isEmpty() && updatedBefore.isEmpty();
    }
}
