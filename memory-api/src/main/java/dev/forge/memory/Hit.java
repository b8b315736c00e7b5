package dev.forge.memory;

import java.util.Objects;

/**
 * A search result: an entry and how well it matched.
 *
 * @param entry the matching entry
 * @param score relevance in {@code (0, 1]}, higher is better; comparable within one result list
 */
public record Hit(MemoryEntry entry, double score) {

    /** Rejects a null entry and a score outside {@code (0, 1]}. */
    public Hit {
        Objects.requireNonNull(entry, "entry");
        if (!(score > 0.0 && score <= 1.0)) {
            throw new IllegalArgumentException("score must be in (0, 1], was " + score + " for " + entry.ref());
        }
    }
}
