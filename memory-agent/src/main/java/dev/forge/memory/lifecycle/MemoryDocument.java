package dev.forge.memory.lifecycle;

import dev.forge.memory.support.LayeredKey;
import dev.forge.memory.MemoryEntry;
import java.time.LocalDate;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One plugin memory document as read, with what the adapter computes on every read.
 *
 * @param key             its layered key
 * @param value           the stored value, timestamp line included
 * @param body            the value without the timestamp line and the blank line after it
 * @param lastUpdated     the date of the timestamp line; empty when there is none
 * @param staleness       computed from {@code lastUpdated} and today; {@link Staleness#STALE} without a date
 * @param daysSinceUpdate whole days since {@code lastUpdated} (negative if it is in the future); empty without a date
 * @param lineCount       lines of the stored value
 * @param sizeWarning     the size limit warning, if the document is over a limit
 * @param entry           the stored entry itself (scope, tags, metadata, version)
 */
public record MemoryDocument(LayeredKey key, String value, String body, Optional<LocalDate> lastUpdated, Staleness staleness,
                             OptionalLong daysSinceUpdate, int lineCount, Optional<String> sizeWarning, MemoryEntry entry) {

    /** Checks for nulls. */
    public MemoryDocument {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(lastUpdated, "lastUpdated");
        Objects.requireNonNull(staleness, "staleness");
        Objects.requireNonNull(daysSinceUpdate, "daysSinceUpdate");
        Objects.requireNonNull(sizeWarning, "sizeWarning");
        Objects.requireNonNull(entry, "entry");
    }

    /** {@link Staleness#STALE_ADVISORY} when the document is stale, else empty. */
    public Optional<String> advisory() {
        return staleness == Staleness.STALE ? Optional.of(Staleness.STALE_ADVISORY) : Optional.empty();
    }

    /** Shows the key and staleness, never the value. */
    @Override
    public String toString() {
        return "MemoryDocument[" + key + ", " + staleness.id() + ", " + lineCount + " lines]";
    }
}
