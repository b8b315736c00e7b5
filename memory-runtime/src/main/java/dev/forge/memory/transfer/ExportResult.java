package dev.forge.memory.transfer;

import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What an export wrote, and what it could not.
 *
 * @param entries         entries written, per scope (every scope present, zero where none)
 * @param historyVersions earlier versions written inside the entries
 * @param relations       relations written
 * @param deletedKeys     deleted keys written with their versions (not in {@code entries})
 * @param unreadable      stored entries left out because they cannot be read (a damaged row), each with where
 *                        ({@code entry project:KEY}) and why; at most {@link TransferProblem#MAX_LISTED}
 * @param unreadableCount how many stored entries were left out as unreadable in all
 * @param sourceProblems  the problems the provider reported ({@code doctor}) before it was read, for a provider whose
 *                        reads leave unreadable entries out without naming them (an unreadable file): what they affect
 *                        may be missing from the export; empty for a provider that names them (then in
 *                        {@code unreadable})
 * @param took            how long it took
 */
public record ExportResult(Map<Scope, Long> entries, long historyVersions, long relations, long deletedKeys,
                           List<TransferProblem> unreadable, long unreadableCount, List<StoreProblem> sourceProblems,
                           Duration took) {

    /** Copies the map and the lists. */
    public ExportResult {
        entries = Map.copyOf(entries);
        unreadable = List.copyOf(unreadable);
        sourceProblems = List.copyOf(sourceProblems);
        Objects.requireNonNull(took, "took");
    }

    /** Entries written, all scopes together. */
    public long totalEntries() {
        return entries.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Whether the export holds everything the provider stores: no entry left out, no problem reported by the source. */
    public boolean lossless() {
        return unreadableCount == 0 && sourceProblems.isEmpty();
    }

    /** One phrase per kind of loss, empty when {@link #lossless()}: what the export may lack, and why. */
    public List<String> losses() {
        List<String> losses = new ArrayList<>();
        if (unreadableCount > 0) {
            losses.add(unreadableCount + " stored entr" + (unreadableCount == 1 ? "y" : "ies") + " that cannot be read"
                    + " (repair or delete them, then export again)");
        }
        if (!sourceProblems.isEmpty()) {
            losses.add("what the source's " + sourceProblems.size() + " problem(s) affect, which may not have been read"
                    + " (see its doctor)");
        }
        return losses;
    }
}
