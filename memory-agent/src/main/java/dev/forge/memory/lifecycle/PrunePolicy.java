package dev.forge.memory.lifecycle;

import dev.forge.memory.support.LayeredKey;
import java.time.LocalDate;

/**
 * A pruning rule for one file type. {@link PluginMemory} runs it on every {@code append} (on the document before the
 * new content is added) and on {@code prune}; it only computes text, {@link PluginMemory} does the writing.
 *
 * <p>A policy must be a pure function of its arguments, and running it on its own output must change nothing
 * (pruning twice is pruning once). It must not lose text it does not mean to drop: moving text elsewhere goes
 * through {@link PruneOutcome#archive()}.
 */
public interface PrunePolicy {

    /** The file type this policy applies to, e.g. {@code review_history}. */
    String fileType();

    /**
     * Prunes one document.
     *
     * @param key   the document, for the actions' keys and reasons
     * @param body  the document without its timestamp line
     * @param today the date pruning runs on
     * @return the new body, what changed, and text to move to a sibling document
     */
    PruneOutcome prune(LayeredKey key, String body, LocalDate today);
}
