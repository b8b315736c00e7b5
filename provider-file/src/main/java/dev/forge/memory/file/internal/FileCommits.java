package dev.forge.memory.file.internal;

import dev.forge.memory.support.files.AtomicFiles;
import dev.forge.memory.ConflictException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.StorageException;
import dev.forge.memory.file.internal.CommitLog.Operation;
import dev.forge.memory.file.internal.CommitLog.Write;
import dev.forge.memory.file.internal.EntryFiles.Loaded;
import dev.forge.memory.file.internal.Journal.Line;
import dev.forge.memory.file.internal.RelationFile.Edge;
import dev.forge.memory.file.internal.RelationFile.Node;
import dev.forge.memory.support.tx.Change;
import dev.forge.memory.support.tx.Commit;
import dev.forge.memory.Keys;
import dev.forge.memory.Scope;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commits of a {@link FileStore}: transactions and restores, each written as a commit record (forced to disk)
 * before any entry changes, applied, journaled at once and the record removed; and the completion of records a crash
 * left. Every method runs under the store's exclusive lock.
 */
final class FileCommits {

    private static final Logger LOG = LoggerFactory.getLogger(FileCommits.class);

    private final FileStore store;

    FileCommits(FileStore store) {
        this.store = store;
    }

    /**
     * Commits a transaction atomically: re-reads every key it saw and checks that each is still as it saw it, writes
     * a commit record (forced to disk), applies the changes, journals them, removes the record. If applying fails,
     * what was applied is undone; if that fails too, the commit is completed instead; if both fail, the record stays,
     * to be completed by the next write or open.
     *
     * @throws ConflictException if another writer changed a key the transaction touched; nothing is applied
     */
    public void commit(Commit<Lookup> commit) {
        if (store.globalApart() && touchesGlobal(commit)) {
            SpanningCommit.commit(store, store.shared(), commit);
            return;
        }
        store.write("commit a transaction", changes -> {
            for (EntryRef ref : commit.observed().keySet()) {
                store.fileIndex.reload(store.namespace(ref.scope()), Keys.toFileName(ref.key()));
            }
            commit.verify(ref -> store.lookup(store.namespace(ref.scope()), Keys.toFileName(ref.key())), Lookup::sameStateAs);
            if (commit.changes().isEmpty()) {
                return null;
            }
            List<Operation> operations = new ArrayList<>();
            for (Change change : commit.changes()) {
                Namespace namespace = store.namespace(change.ref().scope());
                operations.add(change.entry().isPresent()
                        ? new CommitLog.Write(namespace, change.previous(), change.entry().get())
                        : new CommitLog.Remove(namespace, change.ref().key()));
            }
            applyRecorded(operations, changes, Recorded.TRANSACTION);
            return null;
        });
    }

    private static boolean touchesGlobal(Commit<Lookup> commit) {
        return commit.observed().keySet().stream().anyMatch(ref -> ref.scope() == Scope.GLOBAL)
                || commit.changes().stream().anyMatch(change -> change.ref().scope() == Scope.GLOBAL);
    }

    /** How the failures of a recorded change are told: a transaction commit or a restore. */
    record Recorded(String notDone, String change, String retry) {
        static final Recorded TRANSACTION = new Recorded("Transaction not committed", "A transaction commit", "the transaction");

        static Recorded restore(String key) {
            return new Recorded("Key '" + Keys.abbreviate(key) + "' not restored",
                    "A restore of key '" + Keys.abbreviate(key) + "'", "the restore");
        }

        static Recorded restores(int keys) {
            return new Recorded(keys + " keys not restored", "A restore of " + keys + " keys", "the restore");
        }
    }

    /**
     * Writes a commit record (forced to disk), applies the operations, journals them all at once and removes the
     * record. Called under the exclusive lock. If applying fails, see {@link #failedCommit}.
     */
    void applyRecorded(List<Operation> operations, FileChanges changes, Recorded kind) throws IOException {
        CommitLog.Record record = store.commitLog.write(operations, store.fsync);
        changes.started();
        try {
            List<Line> lines = apply(operations, changes);
            // Only a complete commit is journaled, so that no provider sees part of it.
            if (store.journal.append(lines)) {
                store.stale = true;
            }
            store.advanceCursor();
        } catch (IOException | RuntimeException e) {
            failedCommit(record, changes, e, kind);
        }
        changes.complete();
        try {
            store.commitLog.remove(record, store.fsync);
        } catch (IOException e) {
            LOG.error("{} was completed, but its commit record {} could not be removed ({}); the next write applies it again, "
                    + "which changes nothing", kind.change(), record.file(), e.toString());
        }
    }

    /** After a commit failed half-way: undo it, or else complete it, or else say that it is recorded. */
    private void failedCommit(CommitLog.Record record, FileChanges changes, Exception cause, Recorded kind) {
        store.stale = true;
        List<Exception> undoFailures = changes.undo();
        if (undoFailures.isEmpty()) {
            try {
                store.commitLog.remove(record, store.fsync);
            } catch (IOException e) {
                StorageException error = new StorageException(kind.notDone() + ": " + cause + ". Its changes were undone, "
                        + "but its commit record " + record.file() + " could not be removed (" + e + "), so the next write to "
                        + "this store, or the next open, applies " + kind.retry() + " after all. Do not retry it.", cause);
                error.addSuppressed(e);
                throw error;
            }
            throw new StorageException(kind.notDone() + ": " + cause + ". Nothing was applied; fix the cause (check the "
                    + "disk and the directory's permissions) and retry " + kind.retry() + ".", cause);
        }
        FileChanges forward = new FileChanges();
        try {
            List<Line> lines = apply(record.operations(), forward);
            journalCommit(lines);
            forward.complete();
        } catch (IOException | RuntimeException again) {
            forward.undo();
            StorageException error = new StorageException(kind.change() + " failed half-way (" + cause + ") and could be "
                    + "neither undone (" + undoFailures.get(0) + ") nor completed (" + again + "). It is recorded in "
                    + record.file() + ": the next write to this store, or the next open, completes it once the cause is fixed, "
                    + "and writes fail until then. Do not retry " + kind.retry() + ".", cause);
            undoFailures.forEach(error::addSuppressed);
            error.addSuppressed(again);
            throw error;
        }
        LOG.warn("{} failed half-way ({}) and could not be undone; it was completed instead", kind.change(), cause.toString());
    }

    /** Journals a completed commit; if the store.journal cannot be appended to, makes every reader rescan instead. */
    void journalCommit(List<Line> lines) throws IOException {
        try {
            if (store.journal.append(lines)) {
                store.stale = true;
            }
            store.advanceCursor();
        } catch (IOException e) {
            if (!store.journal.invalidate(store.fsync)) {
                throw e;
            }
            LOG.warn("Could not append to the store.journal {} ({}); replaced it so that every provider rescans", store.journal.file(), e.toString());
            store.stale = true;
        }
    }

    /**
     * Applies operations, each step undoable through {@code changes}, and returns their store.journal lines. Every write
     * keeps the entry it replaces as history: by a hard link when the file on disk holds it (a commit), written
     * from the record otherwise (a commit completed again after a crash).
     */
    List<Line> apply(List<Operation> operations, FileChanges changes) throws IOException {
        List<Line> lines = new ArrayList<>();
        Set<Node> removed = new HashSet<>();
        Set<Namespace> removedIn = new LinkedHashSet<>();
        for (Operation operation : operations) {
            Namespace namespace = operation.namespace();
            String name = Keys.toFileName(operation.key());
            Optional<Loaded> onDisk = store.files.load(namespace, name);
            boolean damaged = onDisk.isPresent() && !onDisk.get().ok();
            if (damaged) {
                store.files.moveAside(namespace, name, store.clock.instant(), changes);
            }
            if (operation instanceof Write write) {
                boolean previousOnDisk = write.previous().isPresent() && onDisk.isPresent()
                        && write.previous().get().equals(onDisk.get().entry());
                store.files.write(namespace, name, write.previous(), previousOnDisk, EntryCodec.encode(write.entry(), store.gzip), changes);
                lines.add(Line.set(namespace, name));
                store.fileIndex.indexPut(namespace, name, write.entry());
            } else if (operation instanceof CommitLog.Restore restore) {
                // No previous entry: the old history goes, then the given earlier versions become the whole history.
                store.files.write(namespace, name, Optional.empty(), false, EntryCodec.encode(restore.current(), store.gzip), changes);
                store.files.replaceHistory(namespace, name, restore.earlier(), changes);
                lines.add(Line.set(namespace, name));
                store.fileIndex.indexPut(namespace, name, restore.current());
            } else {
                if (!damaged) {
                    store.files.remove(namespace, name, changes);
                    removedIn.add(namespace);
                }
                lines.add(Line.delete(namespace, name));
                store.fileIndex.indexRemove(namespace, name);
                removed.add(new Node(namespace, operation.key()));
            }
        }
        for (Namespace namespace : removedIn) {
            store.files.sync(namespace);
        }
        if (!removed.isEmpty()) {
            store.graph.syncRelations();
            List<Edge> kept = store.graph.without(removed);
            if (kept.size() != store.graph.edges().size()) {
                store.graph.saveRelations(kept, changes);
                lines.add(Line.relations());
            }
        }
        return lines;
    }

    /**
     * Completes commits that a crash cut off, then catches up. Called under the exclusive lock.
     *
     * @throws StorageException naming the record if one cannot be completed: writes wait for it
     */
    void recoverCommits() throws IOException {
        List<Path> pending = store.commitLog.pending();
        if (pending.isEmpty()) {
            return;
        }
        store.graph.loadRelations();
        for (Path file : pending) {
            CommitLog.Record record;
            try {
                record = store.commitLog.read(file);
            } catch (EntryCodec.MalformedException e) {
                Path aside = AtomicFiles.moveAside(file, store.clock.instant());
                LOG.error("The commit record {} is damaged ({}); moved aside to {} without applying it", file, e.getMessage(), aside);
                continue;
            }
            FileChanges changes = new FileChanges();
            try {
                if (!record.shared().isEmpty()) {
                    SpanningCommit.completeSharedPart(store, record);
                }
                journalCommit(apply(record.operations(), changes));
                changes.complete();
                store.commitLog.remove(record, store.fsync);
            } catch (IOException | RuntimeException e) {
                changes.undo();
                store.stale = true;
                throw new StorageException("A commit (a transaction or a restore) recorded in " + file + " was cut off and cannot be completed: " + e
                        + ". Every write to this store fails until it is (reads still work); fix the cause, and the next write or "
                        + "open completes the commit.", e);
            }
            LOG.warn("Completed an interrupted commit (a transaction or a restore) from {} ({} operations)", file, record.operations().size());
        }
        store.stale = true;
        store.catchUp(true);
    }
}
