package dev.forge.memory.lifecycle;

import java.time.LocalDate;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Every layered document by staleness; each list in key order.
 *
 * @param today the date the report was made for
 * @param fresh documents updated 0 to 30 days ago (or in the future)
 * @param aging documents updated 31 to 90 days ago
 * @param stale documents updated more than 90 days ago, or without a timestamp line
 */
public record StalenessReport(LocalDate today, List<StalenessEntry> fresh, List<StalenessEntry> aging, List<StalenessEntry> stale) {

    /** Copies the lists. */
    public StalenessReport {
        Objects.requireNonNull(today, "today");
        fresh = List.copyOf(fresh);
        aging = List.copyOf(aging);
        stale = List.copyOf(stale);
    }

    /** The entries of one staleness. */
    public List<StalenessEntry> entries(Staleness staleness) {
        return switch (staleness) {
            case FRESH -> fresh;
            case AGING -> aging;
            case STALE -> stale;
        };
    }

    /** Every entry: fresh, then aging, then stale. */
    public List<StalenessEntry> all() {
        return Stream.of(fresh, aging, stale).flatMap(List::stream).toList();
    }
}
