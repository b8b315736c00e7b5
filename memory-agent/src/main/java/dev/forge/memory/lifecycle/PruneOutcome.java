package dev.forge.memory.lifecycle;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link PrunePolicy} makes of a document.
 *
 * @param text    the document's new body (without timestamp line); the old body when nothing changed
 * @param actions what changed, one action per part; empty when nothing changed
 * @param archive text to add at the end of another document of the same directory, if any
 */
public record PruneOutcome(String text, List<PruneAction> actions, Optional<Archive> archive) {

    /**
     * Text a policy moves out of a document, to be appended to a sibling document (created if missing).
     *
     * @param fileType the sibling's file type, e.g. {@code review_history_archive}
     * @param text     the text to append, verbatim
     */
    public record Archive(String fileType, String text) {
        /** Checks for nulls. */
        public Archive {
            Objects.requireNonNull(fileType, "fileType");
            Objects.requireNonNull(text, "text");
        }
    }

    /** Copies the list. */
    public PruneOutcome {
        Objects.requireNonNull(text, "text");
        actions = List.copyOf(actions);
        Objects.requireNonNull(archive, "archive");
    }

    /** The outcome of a policy that found nothing to do. */
    public static PruneOutcome unchanged(String text) {
        return new PruneOutcome(text, List.of(), Optional.empty());
    }

    /** Whether the policy changed anything. */
    public boolean changed() {
        return !actions.isEmpty();
    }
}
