package dev.forge.memory.file.internal;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Scope;
import dev.forge.memory.support.files.AtomicFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Opens the stores of one {@code file} provider: the project store at {@code base_path} (PROJECT and SESSION) and the
 * shared global store at {@code global_path} (GLOBAL, shared by every project of the user); one store for all three
 * when both name the same directory. The shared store is opened first, so that the project store can complete a
 * transaction spanning both that a crash cut off; then GLOBAL entries an older version kept in the project store are
 * moved into the shared one ({@link GlobalMigration}).
 *
 * @param provider     the provider's name, for messages
 * @param clock        the clock of both stores
 * @param gzip         whether entry files are written gzip-compressed (both encodings are always read)
 * @param fsync        whether writes are forced to the disk
 * @param maxFileSize  the largest encoded entry file
 * @param journalLimit the journal size past which a writer starts a new one
 */
public record StoreOpener(String provider, Clock clock, boolean gzip, boolean fsync, long maxFileSize, long journalLimit) {

    /**
     * The project store of {@code projectDirectory}, with the shared global store of {@code globalDirectory} attached
     * unless both are one directory.
     *
     * @throws ConfigurationException                       if one directory lies inside the other
     * @throws dev.forge.memory.BackendUnavailableException if a directory cannot be created, locked or read
     */
    public FileStore open(Path projectDirectory, Path globalDirectory, String projectId, String sessionId) {
        Optional<Path> projectReal = real(projectDirectory);
        Optional<Path> globalReal = real(globalDirectory);
        if (projectReal.isPresent() && projectReal.equals(globalReal)) {
            return FileStore.open(provider, "base_path", projectDirectory, EnumSet.allOf(Scope.class), null, projectId,
                    sessionId, clock, gzip, fsync, maxFileSize, journalLimit);
        }
        if (projectReal.isPresent() && globalReal.isPresent()
                && (projectReal.get().startsWith(globalReal.get()) || globalReal.get().startsWith(projectReal.get()))) {
            throw new ConfigurationException("The file provider's global_path (" + globalReal.get() + ") and base_path ("
                    + projectReal.get() + ") overlap, one inside the other: point both at one directory (one store for "
                    + "every scope) or at two directories apart.");
        }
        FileStore shared = FileStore.open(provider, "global_path", globalDirectory, Set.of(Scope.GLOBAL), null, projectId,
                sessionId, clock, gzip, fsync, maxFileSize, journalLimit);
        try {
            FileStore project = FileStore.open(provider, "base_path", projectDirectory, EnumSet.allOf(Scope.class), shared,
                    projectId, sessionId, clock, gzip, fsync, maxFileSize, journalLimit);
            try {
                GlobalMigration.run(project);
            } catch (RuntimeException e) {
                project.close();
                throw e;
            }
            return project;
        } catch (RuntimeException | Error e) {
            shared.close();
            throw e;
        }
    }

    /** The real path of {@code directory}, created if missing; empty if it cannot be (the store's open says why). */
    private static Optional<Path> real(Path directory) {
        try {
            AtomicFiles.createDirectories(directory, false);
            return Optional.of(directory.toRealPath());
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
