package dev.forge.memory.lifecycle;

import dev.forge.memory.support.LayeredKey;
import java.util.Objects;

/**
 * One thing pruning did (or, in a dry run, would do) to a document.
 *
 * @param key    the document
 * @param kind   what was done
 * @param reason what and why, for people: e.g. {@code "## Review #1" moved to skills/s/p/review_history_archive}
 */
public record PruneAction(LayeredKey key, Kind kind, String reason) {

    /** What pruning did to one part of a document. */
    public enum Kind {
        /** Moved, verbatim, to another document. */
        ARCHIVED,
        /** Deleted, because the rule says it is no longer useful. */
        REMOVED,
        /** Kept, with a marker asking for a check. */
        FLAGGED,
        /** Replaced by a line in a summary. */
        SUMMARIZED
    }

    /** Checks for nulls. */
    public PruneAction {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
    }
}
