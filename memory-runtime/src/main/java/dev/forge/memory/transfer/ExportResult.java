package dev.forge.memory.transfer;

import dev.forge.memory.Scope;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * What an export wrote.
 *
 * @param entries         entries written, per scope (every scope present, zero where none)
 * @param historyVersions earlier versions written inside the entries
 * @param relations       relations written
 * @param deletedKeys     deleted keys written with their versions (not in {@code entries})
 * @param took            how long it took
 */
public record ExportResult(Map<Scope, Long> entries, long historyVersions, long relations, long deletedKeys, Duration took) {

    /** Copies the map. */
    public ExportResult {
        entries = Map.copyOf(entries);
        Objects.requireNonNull(took, "took");
    }

    /** Entries written, all scopes together. */
    public long totalEntries() {
        return entries.values().stream().mapToLong(Long::longValue).sum();
    }
}
