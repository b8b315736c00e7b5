package dev.forge.memory.file.internal;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.file.internal.CommitLog.Operation;
import dev.forge.memory.file.internal.CommitLog.Write;
import dev.forge.memory.support.tx.Change;
import dev.forge.memory.support.tx.Commit;
import dev.forge.memory.Keys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A transaction that touches GLOBAL keys while GLOBAL lives in a shared store apart from the project store. Both
 * exclusive locks are held, the project store's first (always that order), and every key read or written is checked
 * in its own store before anything changes. The project store's commit record then holds the whole transaction (its
 * own operations and the shared part); the shared part is committed in the shared store (its own record there), then
 * the project part, then the record goes. A crash anywhere leaves that record, and the next write or open of the
 * project store completes both parts: the shared part again only where a key still holds what the transaction found
 * (a key already holding the transaction's value, or changed since by another project, is left alone).
 */
final class SpanningCommit {

    private static final Logger LOG = LoggerFactory.getLogger(SpanningCommit.class);

    private SpanningCommit() {
    }

    /** Commits {@code commit}, whose keys lie in {@code project} and {@code shared}; see the class comment. */
    static void commit(FileStore project, FileStore shared, Commit<Lookup> commit) {
        project.write("commit a transaction", changes -> {
            shared.write("commit a transaction", sharedChanges -> {
                for (EntryRef ref : commit.observed().keySet()) {
                    FileStore owner = project.owner(ref.scope());
                    owner.fileIndex.reload(owner.namespace(ref.scope()), Keys.toFileName(ref.key()));
                }
                commit.verify(ref -> project.owner(ref.scope()).lookup(project.namespace(ref.scope()), Keys.toFileName(ref.key())),
                        Lookup::sameStateAs);
                List<Operation> local = new ArrayList<>();
                List<Operation> global = new ArrayList<>();
                for (Change change : commit.changes()) {
                    Namespace namespace = project.namespace(change.ref().scope());
                    Operation operation = change.entry().isPresent()
                            ? new Write(namespace, change.previous(), change.entry().get())
                            : new CommitLog.Remove(namespace, change.ref().key(), change.previous());
                    (change.ref().scope() == Scope.GLOBAL ? global : local).add(operation);
                }
                if (global.isEmpty() && local.isEmpty()) {
                    return null;
                }
                if (local.isEmpty()) {
                    shared.commits.applyRecorded(global, sharedChanges, FileCommits.Recorded.TRANSACTION);
                } else if (global.isEmpty()) {
                    project.commits.applyRecorded(local, changes, FileCommits.Recorded.TRANSACTION);
                } else {
                    applyBoth(project, shared, local, global, changes, sharedChanges);
                }
                return null;
            });
            if (commit.changes().stream().anyMatch(change -> change.ref().scope() == Scope.GLOBAL && change.entry().isEmpty())) {
                project.graph.pruneGlobal(changes);
            }
            return null;
        });
    }

    private static void applyBoth(FileStore project, FileStore shared, List<Operation> local, List<Operation> global,
                                  FileChanges changes, FileChanges sharedChanges) throws IOException {
        CommitLog.Record record = project.commitLog.write(local, global, project.fsync);
        changes.started();
        try {
            shared.commits.applyRecorded(global, sharedChanges, FileCommits.Recorded.TRANSACTION);
        } catch (RuntimeException e) {
            // Undone there (nothing applied anywhere) unless its record stayed, to be completed: then so must ours.
            if (shared.commitLog.pending().isEmpty()) {
                project.commitLog.remove(record, project.fsync);
            }
            throw e;
        }
        try {
            project.commits.journalCommit(project.commits.apply(local, changes));
        } catch (IOException | RuntimeException e) {
            // The GLOBAL part is in place: complete the project part rather than undo it.
            project.stale = true;
            changes.undo();
            FileChanges forward = new FileChanges();
            try {
                project.commits.journalCommit(project.commits.apply(local, forward));
                forward.complete();
            } catch (IOException | RuntimeException again) {
                forward.undo();
                StorageException error = new StorageException("A transaction's GLOBAL part was committed in " + shared.directory()
                        + ", but its project part failed (" + e + ") and could not be completed (" + again + "). It is recorded "
                        + "in " + record.file() + ": the next write to this project's store, or the next open, completes it once "
                        + "the cause is fixed, and writes fail until then. Do not retry the transaction.", e);
                error.addSuppressed(again);
                throw error;
            }
        }
        changes.complete();
        try {
            project.commitLog.remove(record, project.fsync);
        } catch (IOException e) {
            LOG.error("A transaction was completed, but its commit record {} could not be removed ({}); the next write "
                    + "completes it again, which changes nothing", record.file(), e.toString());
        }
    }

    /**
     * Completes the shared part of a spanning commit a crash cut off, under the shared store's exclusive lock (taken
     * after the project store's, which the caller holds). Each operation is applied only where its key still holds
     * what the transaction found: a key already holding the new value was done before the crash, one changed since was
     * changed by a later writer, who wins.
     */
    static void completeSharedPart(FileStore project, CommitLog.Record record) {
        if (!project.globalApart()) {
            throw new StorageException("The commit record " + record.file() + " holds changes to the shared global store, "
                    + "but this provider keeps GLOBAL in its own store (global_path names it): open it with the global_path "
                    + "it was written with, once, so that the commit is completed.");
        }
        FileStore shared = project.shared();
        shared.write("complete a transaction's GLOBAL part", sharedChanges -> {
            List<Operation> due = new ArrayList<>();
            for (Operation operation : record.shared()) {
                String name = Keys.toFileName(operation.key());
                shared.fileIndex.reload(operation.namespace(), name);
                Optional<MemoryEntry> now = Optional.ofNullable(shared.lookup(operation.namespace(), name).entry());
                boolean pending = operation instanceof Write write ? now.equals(write.previous())
                        : now.isPresent() && (((CommitLog.Remove) operation).previous().isEmpty()
                        || now.equals(((CommitLog.Remove) operation).previous()));
                if (pending) {
                    due.add(operation);
                }
            }
            if (!due.isEmpty()) {
                shared.commits.applyRecorded(due, sharedChanges, FileCommits.Recorded.TRANSACTION);
            }
            return null;
        });
        LOG.debug("Completed the GLOBAL part of the commit recorded in {}", record.file());
    }

}
