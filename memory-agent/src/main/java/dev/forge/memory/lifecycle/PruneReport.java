package dev.forge.memory.lifecycle;

import java.util.List;

/**
 * What {@link PluginMemory#prune(PruneRequest)} did.
 *
 * @param actions  every action, by document key then in document order
 * @param warnings size limit warnings of the documents looked at (after pruning), each prefixed with the key
 * @param dryRun   whether nothing was written
 * @param examined how many layered documents were in the request's range
 */
public record PruneReport(List<PruneAction> actions, List<String> warnings, boolean dryRun, int examined) {

    /** Copies the lists. */
    public PruneReport {
        actions = List.copyOf(actions);
        warnings = List.copyOf(warnings);
    }

    /** The actions of one kind. */
    public List<PruneAction> actions(PruneAction.Kind kind) {
        return actions.stream().filter(a -> a.kind() == kind).toList();
    }
}
