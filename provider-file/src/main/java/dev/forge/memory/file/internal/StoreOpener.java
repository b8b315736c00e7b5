package dev.forge.memory.file.internal;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Scope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Set;

/**
 * Opens the stores of one {@code file} provider: the project store at {@code base_path} (PROJECT and SESSION) and the
 * shared global store at {@code global_path} (GLOBAL, shared by every project of the user), the latter on first use;
 * one store for all three when both name the same directory. Then GLOBAL entries an older version kept in the project
 * store are moved into the shared one ({@link GlobalMigration}).
 *
 * @param provider     the provider's name, for messages
 * @param clock        the clock of both stores
 * @param gzip         whether entry files are written gzip-compressed (both encodings are always read)
 * @param fsync        whether writes are forced to the disk
 * @param maxFileSize  the largest encoded entry file
 * @param journalLimit the journal size past which a writer starts a new one
 */
public record StoreOpener(String provider, Clock clock, boolean gzip, boolean fsync, long maxFileSize, long journalLimit) {

    /** The names a store uses for itself at its top level: another store may not live under one of them. */
    private static final Set<String> STORE_NAMES = Set.of("project", "session", "global", CommitLog.DIRECTORY);

    /**
     * The project store of {@code projectDirectory}, with the shared global store of {@code globalDirectory} attached
     * unless both are one directory.
     *
     * @throws ConfigurationException                       if one store would lie inside the other's entries
     * @throws dev.forge.memory.BackendUnavailableException if the project directory cannot be created, locked or read
     */
    public FileStore open(Path projectDirectory, Path globalDirectory, String projectId, String sessionId) {
        Path project = canonical(projectDirectory);
        Path global = canonical(globalDirectory);
        if (project.equals(global)) {
            return FileStore.open(provider, "base_path", projectDirectory, EnumSet.allOf(Scope.class), null, projectId,
                    sessionId, clock, gzip, fsync, maxFileSize, journalLimit);
        }
        if (inside(global, project) || inside(project, global)) {
            throw new ConfigurationException("The file provider's global_path (" + global + ") and base_path (" + project
                    + ") overlap, one inside the other's entries: point both at one directory (one store for every scope) "
                    + "or at two directories apart.");
        }
        SharedGlobal shared = new SharedGlobal(globalDirectory, () -> FileStore.open(provider, "global_path",
                globalDirectory, Set.of(Scope.GLOBAL), null, projectId, sessionId, clock, gzip, fsync, maxFileSize, journalLimit));
        FileStore store = FileStore.open(provider, "base_path", projectDirectory, EnumSet.allOf(Scope.class), shared,
                projectId, sessionId, clock, gzip, fsync, maxFileSize, journalLimit);
        try {
            GlobalMigration.run(store);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        return store;
    }

    /** Whether {@code inner} lies under one of the top-level names {@code outer} uses for its entries and records. */
    private static boolean inside(Path inner, Path outer) {
        if (!inner.startsWith(outer) || inner.equals(outer)) {
            return false;
        }
        String first = outer.relativize(inner).getName(0).toString();
        return STORE_NAMES.contains(first);
    }

    /**
     * The real path of {@code directory}, or of its nearest existing ancestor with the rest appended: nothing is created,
     * so that a store never used is never made.
     */
    private static Path canonical(Path directory) {
        Path absolute = directory.toAbsolutePath().normalize();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return absolute;
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(absolute));
        } catch (IOException e) {
            return absolute;
        }
    }
}
