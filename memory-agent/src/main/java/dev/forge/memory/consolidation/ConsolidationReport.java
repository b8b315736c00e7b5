package dev.forge.memory.consolidation;

import dev.forge.memory.EntryRef;
import dev.forge.memory.Scope;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link Consolidation} run did, or in a dry run would do.
 *
 * @param outcome   how it ended
 * @param reason    why, in a sentence: the numbers behind the threshold decision, or the failure
 * @param dryRun    whether this was a dry run (nothing written whatever the outcome)
 * @param tokens    the estimated size of the scopes' values before the run
 * @param threshold the size over which the run consolidates
 * @param merged    the groups merged (in a dry run: that would be merged)
 * @param skipped   groups left alone, each with the reason (a merged memory over the provider's limits)
 * @param removed   the entries actually deleted
 * @param failures  what went wrong, empty when nothing did
 */
public record ConsolidationReport(Outcome outcome, String reason, boolean dryRun, long tokens, int threshold,
                                  List<Group> merged, List<Group> skipped, List<EntryRef> removed, List<String> failures) {

    /** How a run ended. */
    public enum Outcome {
        /** The scopes hold no more than the threshold: nothing was planned. */
        BELOW_THRESHOLD,
        /** The consolidator found nothing to merge, or every group had to be skipped. Nothing written. */
        NOTHING_TO_MERGE,
        /** A dry run with a valid plan: {@link #merged()} says what a real run would merge. Nothing written. */
        PLANNED,
        /** Every group of the plan was merged (but those in {@link #skipped()}). */
        MERGED,
        /**
         * Nothing was written: the consolidator failed or gave an invalid plan, the memories changed while it planned,
         * or the transaction could not commit. {@link #failures()} says why.
         */
        REJECTED,
        /**
         * A provider without transactions failed part way: the groups in {@link #merged()} were merged, the rest not.
         * Nothing is lost (a kept memory is written with its {@code supersedes} before any delete); run again.
         */
        PARTIAL
    }

    /**
     * One group of a plan.
     *
     * @param scope   its scope
     * @param kept    the key that stays
     * @param removed the keys merged into it
     * @param note    why it was skipped; empty for a merged group
     */
    public record Group(Scope scope, String kept, List<String> removed, String note) {

        /** Copies the keys. */
        public Group {
            Objects.requireNonNull(scope, "scope");
            Objects.requireNonNull(kept, "kept");
            removed = List.copyOf(removed);
            Objects.requireNonNull(note, "note");
        }
    }

    /** Copies the lists. */
    public ConsolidationReport {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(reason, "reason");
        merged = List.copyOf(merged);
        skipped = List.copyOf(skipped);
        removed = List.copyOf(removed);
        failures = List.copyOf(failures);
    }

    /** Whether the run went past the threshold check. */
    public boolean ran() {
        return outcome != Outcome.BELOW_THRESHOLD;
    }

    /** Whether the store was changed. */
    public boolean changed() {
        return outcome == Outcome.MERGED || outcome == Outcome.PARTIAL;
    }
}
