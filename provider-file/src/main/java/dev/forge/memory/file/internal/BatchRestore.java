package dev.forge.memory.file.internal;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Restores of many keys at once ({@link dev.forge.memory.Restoring#restoreAll}): every version is encoded (and so
 * checked against {@code max_file_size}) before anything changes, then the keys of each store are written under one
 * hold of its exclusive lock as one recorded commit, so a batch pays one commit record and one journal append, not one
 * per key, and is applied whole or, if it fails, undone (completed after a crash). With GLOBAL keys in a shared store
 * apart, both locks are held (the project store's first, as every spanning write takes them) and the shared store's
 * part commits first: only a crash or an I/O failure between the two commits leaves the GLOBAL keys restored without
 * the others, each key whole.
 */
public final class BatchRestore {

    private BatchRestore() {
    }

    /**
     * Restores {@code chains}, each checked by {@link dev.forge.memory.EntryRules#checkChain}, into {@code store} and
     * its shared global store; a key already holding its chain is left as it is.
     *
     * @return the current entries, in the order of {@code chains}
     * @throws dev.forge.memory.ValueTooLargeException if a version's file would be over {@code max_file_size}; nothing
     *                                                 is changed
     */
    public static List<MemoryEntry> restore(FileStore store, List<List<MemoryEntry>> chains) {
        store.checkOpen();
        List<List<MemoryEntry>> local = new ArrayList<>();
        List<List<MemoryEntry>> global = new ArrayList<>();
        for (List<MemoryEntry> chain : chains) {
            Scope scope = chain.get(chain.size() - 1).scope();
            FileStore owner = store.owner(scope);
            chain.forEach(owner.files::encode);
            (owner == store ? local : global).add(chain);
        }
        FileStore shared = store.owner(Scope.GLOBAL);
        if (global.isEmpty() || local.isEmpty()) {
            FileStore owner = global.isEmpty() ? store : shared;
            owner.write(describe(chains), changes -> apply(owner, chains, changes));
        } else {
            store.write(describe(chains), changes -> {
                shared.write(describe(global), sharedChanges -> apply(shared, global, sharedChanges));
                return apply(store, local, changes);
            });
        }
        return chains.stream().map(chain -> chain.get(chain.size() - 1)).toList();
    }

    private static String describe(List<List<MemoryEntry>> chains) {
        return chains.size() == 1 ? "restore key '" + Keys.abbreviate(chains.get(0).get(0).key()) + "'"
                : "restore " + chains.size() + " keys";
    }

    /** Under {@code owner}'s exclusive lock: one recorded commit of every chain the key does not hold yet. */
    private static Void apply(FileStore owner, List<List<MemoryEntry>> chains, FileChanges changes) throws IOException {
        List<CommitLog.Operation> restores = new ArrayList<>();
        for (List<MemoryEntry> chain : chains) {
            MemoryEntry current = chain.get(chain.size() - 1);
            Namespace namespace = owner.namespace(current.scope());
            String name = Keys.toFileName(current.key());
            owner.fileIndex.reload(namespace, name);
            if (!holds(owner, namespace, name, chain)) {
                restores.add(new CommitLog.Restore(namespace, chain));
            }
        }
        if (!restores.isEmpty()) {
            owner.commits.applyRecorded(restores, changes, chains.size() == 1
                    ? FileCommits.Recorded.restore(chains.get(0).get(0).key()) : FileCommits.Recorded.restores(chains.size()));
        }
        return null;
    }

    /** Whether the key already holds exactly {@code chain}, so that restoring it again writes nothing. */
    private static boolean holds(FileStore owner, Namespace namespace, String name, List<MemoryEntry> chain)
            throws IOException {
        MemoryEntry current = chain.get(chain.size() - 1);
        if (!current.equals(owner.lookup(namespace, name).entry())) {
            return false;
        }
        try {
            return owner.files.versions(namespace, name, current).equals(chain);
        } catch (CorruptEntryException e) {
            // A damaged history file: the restore writes the history again.
            return false;
        }
    }
}
