package dev.forge.memory.file.internal;

import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.support.files.Interrupts;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The version history of a {@link FileStore}'s keys, read from disk. */
public final class FileHistory {

    private static final Logger LOG = LoggerFactory.getLogger(FileHistory.class);

    private FileHistory() {
    }

    /**
     * Every version of a key, oldest first; read from disk under the shared lock, after completing any commit a
     * crash cut off.
     */
    public static List<MemoryEntry> versions(FileStore store, String key, Scope scope) {
        store.checkOpen();
        Keys.validate(key);
        Objects.requireNonNull(scope, "scope");
        Namespace namespace = store.namespace(scope);
        String name = Keys.toFileName(key);
        completeCutOffCommits(store);
        return Interrupts.deferred(() -> store.caughtUp("read the history of key '" + Keys.abbreviate(key) + "'", () -> {
            Lookup lookup = store.lookup(namespace, name);
            if (lookup.damaged() != null) {
                throw lookup.damaged().corruption(key);
            }
            if (lookup.entry() == null) {
                return List.of();
            }
            return List.copyOf(store.files.versions(namespace, name, lookup.entry()));
        }));
    }

    /**
     * Completes commits a crash cut off, as the next write would. Needed before reading history from disk: a restore
     * cut off between its entry file and its history directory leaves the two out of step until its record is
     * completed, and the index (journaled only once a commit is complete) cannot tell. One directory listing when
     * nothing is pending. If completing fails, the read goes on: writes report the record.
     */
    private static void completeCutOffCommits(FileStore store) {
        try {
            if (store.commitLog.pending().isEmpty()) {
                return;
            }
        } catch (IOException e) {
            throw store.storage("list the commit records", e);
        }
        try {
            store.write("complete a commit that was cut off", changes -> null);
        } catch (StorageException e) {
            LOG.debug("Reading history while a commit record cannot be completed: {}", e.getMessage());
        }
    }
}
