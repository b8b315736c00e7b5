package dev.forge.memory.lifecycle;

import dev.forge.memory.support.LayeredKey;
import java.time.LocalDate;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One document in a {@link StalenessReport}.
 *
 * @param key             the document
 * @param staleness       its staleness
 * @param lastUpdated     the date of its timestamp line; empty when it has none
 * @param daysSinceUpdate whole days since then (negative if in the future); empty without a date
 * @param lineCount       lines of the stored value
 * @param sizeWarning     the size limit warning, if over a limit
 */
public record StalenessEntry(LayeredKey key, Staleness staleness, Optional<LocalDate> lastUpdated, OptionalLong daysSinceUpdate,
                             int lineCount, Optional<String> sizeWarning) {

    /** Checks for nulls. */
    public StalenessEntry {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(staleness, "staleness");
        Objects.requireNonNull(lastUpdated, "lastUpdated");
        Objects.requireNonNull(daysSinceUpdate, "daysSinceUpdate");
        Objects.requireNonNull(sizeWarning, "sizeWarning");
    }

    /** The entry of a document as read. */
    public static StalenessEntry of(MemoryDocument document) {
        return new StalenessEntry(document.key(), document.staleness(), document.lastUpdated(), document.daysSinceUpdate(),
                document.lineCount(), document.sizeWarning());
    }
}
