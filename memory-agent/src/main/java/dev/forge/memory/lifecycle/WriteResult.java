package dev.forge.memory.lifecycle;

import dev.forge.memory.support.LayeredKey;
import dev.forge.memory.MemoryEntry;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The result of {@link PluginMemory#create}, {@link PluginMemory#update} or {@link PluginMemory#append}.
 *
 * @param key          the document written
 * @param entry        the entry as stored
 * @param lineCount    lines of the stored value
 * @param sizeWarning  the size limit warning, if over a limit (the write was done anyway)
 * @param pruneActions what pruning did during an append; always empty for create and update
 */
public record WriteResult(LayeredKey key, MemoryEntry entry, int lineCount, Optional<String> sizeWarning,
                          List<PruneAction> pruneActions) {

    /** Copies the list. */
    public WriteResult {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(sizeWarning, "sizeWarning");
        pruneActions = List.copyOf(pruneActions);
    }

    /** Whether pruning changed anything. */
    public boolean pruned() {
        return !pruneActions.isEmpty();
    }

    /** The prune actions for people, e.g. {@code "Archived 3 sections to skills/s/p/review_history_archive"}; empty if none. */
    public Optional<String> pruneDetails() {
        if (pruneActions.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(pruneActions.stream().map(a -> a.kind() + ": " + a.reason()).collect(Collectors.joining("; ")));
    }
}
