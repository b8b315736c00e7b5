package dev.forge.memory.transfer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What an import (or migration) did, and exactly what the target could not hold.
 *
 * @param target                  the name of the provider imported into
 * @param created                 keys the target did not hold before
 * @param overwritten             keys replaced under {@link ConflictPolicy#OVERWRITE} or {@link ConflictPolicy#NEWER}
 * @param unchanged               keys the target already held exactly so (a re-import); nothing was written
 * @param skipped                 keys kept as the target had them, by the conflict policy
 * @param historyVersionsWritten  earlier versions stored
 * @param historyVersionsDropped  earlier versions not stored: the target keeps no history
 * @param timestampsNotKept       entries stored with the target's own version and timestamps: it cannot restore
 * @param relationsWritten        relations made (or already there)
 * @param relationsDropped        relations not stored: the target has no graph
 * @param relationTimesNotKept    relations stored with the target's own time instead of the {@code created_at} read:
 *                                the target's graph does not restore relation times
 * @param deletedKeysKept         deleted keys whose versions the target now keeps as deleted (restored, or already so)
 * @param deletedKeysDropped      deleted keys whose versions were not stored: the target keeps no tombstones or cannot
 *                                restore
 * @param defaulted               per field ({@code created_at}, {@code updated_at}, {@code version}, {@code tags},
 *                                {@code metadata}), how many versions lacked it in the input and got a default; empty
 *                                for forge-memory's own exports
 * @param invalid                 records skipped as invalid (with {@code skipInvalid}), each with where and why; at
 *                                most {@link TransferProblem#MAX_LISTED}
 * @param invalidCount            how many records were skipped as invalid in all
 * @param sourceProblems          for a migration, the problems the source store reported ({@code doctor}) before it was
 *                                read: a key it holds back (an unreadable file, say) is not read, so a migration with
 *                                any is not called lossless; 0 for a file import
 * @param took                    how long it took
 */
public record ImportResult(String target, long created, long overwritten, long unchanged, long skipped,
                           long historyVersionsWritten, long historyVersionsDropped, long timestampsNotKept,
                           long relationsWritten, long relationsDropped, long relationTimesNotKept,
                           long deletedKeysKept, long deletedKeysDropped,
                           Map<String, Long> defaulted, List<TransferProblem> invalid, long invalidCount,
                           long sourceProblems, Duration took) {

    /** Copies the list and the map (kept in field order). */
    public ImportResult {
        Objects.requireNonNull(target, "target");
        invalid = List.copyOf(invalid);
        defaulted = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(defaulted));
        Objects.requireNonNull(took, "took");
    }

    /** Entries read and accepted: created, overwritten, unchanged or skipped. */
    public long entries() {
        return created + overwritten + unchanged + skipped;
    }

    /** Whether the target holds everything that was read (apart from what the conflict policy kept as it was). */
    public boolean lossless() {
        return historyVersionsDropped == 0 && timestampsNotKept == 0 && relationsDropped == 0 && relationTimesNotKept == 0
                && deletedKeysDropped == 0
                && invalidCount == 0 && sourceProblems == 0;
    }

    /**
     * One phrase per kind of loss, empty when {@link #lossless()}: what the target did not keep, and why, such as
     * {@code 3 earlier version(s) (provider 'vector' keeps no history)}.
     */
    public List<String> losses() {
        List<String> losses = new ArrayList<>();
        if (historyVersionsDropped > 0) {
            losses.add(historyVersionsDropped + " earlier version(s) (provider '" + target + "' keeps no history)");
        }
        if (timestampsNotKept > 0) {
            losses.add("the timestamps and version numbers of " + timestampsNotKept + " entr(y/ies), stored with new ones"
                    + " (provider '" + target + "' cannot restore entries)");
        }
        if (relationsDropped > 0) {
            losses.add(relationsDropped + " relation(s) (provider '" + target + "' has no graph)");
        }
        if (relationTimesNotKept > 0) {
            losses.add("the created_at of " + relationTimesNotKept + " relation(s), made anew with the import's time"
                    + " (provider '" + target + "' does not restore relation times)");
        }
        if (deletedKeysDropped > 0) {
            losses.add("the histories of " + deletedKeysDropped + " deleted key(s) (provider '" + target
                    + "' keeps no deletions or cannot restore)");
        }
        if (invalidCount > 0) {
            losses.add(invalidCount + " invalid record(s), skipped");
        }
        if (sourceProblems > 0) {
            losses.add("what the source's " + sourceProblems + " problem(s) affect, which may not have been read (see its"
                    + " doctor)");
        }
        return losses;
    }
}
