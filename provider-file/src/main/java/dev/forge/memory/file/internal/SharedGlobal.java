package dev.forge.memory.file.internal;

import dev.forge.memory.BackendUnavailableException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The shared global store of a project store, opened on first use: a provider that never touches GLOBAL creates
 * nothing under the forge home. If opening fails (an unwritable forge home, a {@code global_path} that is a file), the
 * GLOBAL call fails with that error and the next one tries again; the project store is not touched.
 */
final class SharedGlobal {

    private final Path directory;
    private final Supplier<FileStore> opener;
    private FileStore store;
    private boolean closed;

    SharedGlobal(Path directory, Supplier<FileStore> opener) {
        this.directory = directory;
        this.opener = opener;
    }

    /** The configured directory, as given (before links are followed). */
    Path directory() {
        return directory;
    }

    /** The store, opened now if it was not. */
    synchronized FileStore store() {
        if (closed) {
            throw new BackendUnavailableException("This file provider is closed; open a new one.");
        }
        if (store == null) {
            store = opener.get();
        }
        return store;
    }

    /** The store if it is open or its directory exists (opened now), else null: a read never creates it. */
    synchronized FileStore storeIfAny() {
        if (store == null && !closed && !Files.exists(directory)) {
            return null;
        }
        return store();
    }

    /** Releases the store's lock if it was opened; idempotent. */
    synchronized void close() {
        closed = true;
        if (store != null) {
            store.close();
        }
    }
}
