package dev.forge.memory.sqlite.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryException;
import dev.forge.memory.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opening the global database: where it is the project database itself, and errors that say it is the global one and
 * which setting moves it ({@code global_path}), of the same types as the project database's.
 */
public final class GlobalStoreErrors {

    private GlobalStoreErrors() {
    }

    /** Whether {@code global} is the file {@code project} (an open database's real path), by any name or link. */
    public static boolean sameFile(Path project, Path global) {
        Path file = global.toAbsolutePath().normalize();
        if (file.equals(project)) {
            return true;
        }
        try {
            return Files.exists(file) && Files.isSameFile(project, file);
        } catch (IOException e) {
            return false; // unreadable: opening it reports why
        }
    }

    /** {@link Database#acquire} of the global database, its errors saying so. */
    public static Database acquire(Path file, String synchronous, long busyTimeoutMillis) {
        try {
            return Database.acquire(file, "global_path", synchronous, busyTimeoutMillis);
        } catch (MemoryException e) {
            throw about(file, e);
        }
    }

    /** The move of old GLOBAL rows failed: nothing moved (both transactions rolled back, or the project one did). */
    public static MemoryException moveFailed(ScopedStores stores, RuntimeException e) {
        String what = "Moving the GLOBAL memories of " + stores.project().path() + " into the shared global database "
                + stores.global().path() + " failed, and nothing was lost: they stay in the project database and the "
                + "next open tries again. ";
        if (e instanceof MemoryException memory) {
            return same(memory, what + memory.getMessage());
        }
        return new BackendUnavailableException(what + e, e);
    }

    private static MemoryException about(Path file, MemoryException e) {
        return same(e, "GLOBAL memories are kept in " + file + " (the shared global database, setting 'global_path', "
                + "by default $FORGE_HOME/memory.db); the project database was not changed. " + e.getMessage());
    }

    private static MemoryException same(MemoryException e, String message) {
        if (e instanceof ConfigurationException configuration) {
            return new ConfigurationException(message, configuration.source().orElse(null),
                    configuration.field().orElse("global_path"), e);
        }
        if (e instanceof StorageException) {
            return new StorageException(message, e);
        }
        if (e instanceof BackendUnavailableException) {
            return new BackendUnavailableException(message, e);
        }
        return new MemoryException(message, e);
    }
}
