package dev.forge.memory.markdown.internal;

import dev.forge.memory.StorageException;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.markdown.GitChanges;
import dev.forge.memory.markdown.GitStatus;
import dev.forge.memory.support.files.AtomicFiles;
import dev.forge.memory.support.files.StoreLock;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A directory tree writers share: the project's memory directory (with its session directories) or the global one.
 * It has a {@link StoreLock} that every writer holds while it changes files, and a generation file that every writer
 * overwrites after a change, so that other providers, in this JVM or another process, see at their next call that
 * they must look at the disk again.
 *
 * <p>The directory, the lock and its {@code .lock} file are only created by the first write: opening a provider to
 * read creates nothing. The generation is overwritten in place, not replaced by a rename, so that announcing a change
 * does not change the directory's modification time, which the provider watches for files a person adds or removes.
 *
 * <p>With {@code git: true} the directory is also a git repository ({@link GitJournal}): a write begins with
 * {@link #beginWrite()}, reports each file it changes with {@link #changed(Path)} and ends with
 * {@link #endWrite(String)}, which commits them, all holding the lock.
 */
final class Root {

    private static final Logger LOG = LoggerFactory.getLogger(Root.class);

    /** The name of the generation file. */
    static final String GENERATION_FILE = ".generation";

    /** Every generation has this many characters, so that an overwrite in place never leaves a longer old tail. */
    private static final int GENERATION_LENGTH = 32;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path directory;
    private final boolean fsync;
    private StoreLock lock;
    private String seen = "";
    // Null when git is off from the start; then gitOff says why.
    private final GitJournal git;
    private final String gitOff;
    private final boolean gitWanted;

    /** A root whose writes are committed to git if {@code git} is on; opens the repository if there is one. */
    Root(Path directory, boolean fsync, GitOptions git, Clock clock) {
        this.directory = directory;
        this.fsync = fsync;
        GitJournal journal = null;
        String off = null;
        if (!git.on()) {
            off = "git is off in the configuration ('git: true' turns it on)";
        } else {
            try {
                journal = GitJournal.open(directory, git, clock, fsync);
            } catch (LinkageError e) {
                off = "JGit (org.eclipse.jgit) cannot be loaded (" + e + "): add it to the class path to use 'git: true'";
                LOG.warn("git is off for the memories in {}: {}", directory, off);
            }
        }
        this.git = journal;
        this.gitOff = off;
        this.gitWanted = git.on();
    }

    Path directory() {
        return directory;
    }

    /**
     * Creates the directory ({@code 0700}) if needed and takes its lock exclusively. If the directory or its lock
     * file was deleted while the provider was open (a person resetting their memories), they are created again.
     */
    StoreLock.Held exclusive() throws IOException {
        try {
            AtomicFiles.createDirectories(directory, fsync);
        } catch (IOException e) {
            Optional<String> link = brokenLink(directory);
            if (link.isPresent()) {
                throw new StorageException("Cannot write in the memory directory " + directory + ": " + link.get()
                        + ". The directory may be a link, but to a directory; nothing was written, and nothing created "
                        + "where it points. Point 'path' (or 'global_path') at a directory, or mend the link.", e);
            }
            throw e;
        }
        dropLockIfRemoved();
        if (lock == null) {
            lock = StoreLock.acquire(directory.toRealPath());
        }
        return lock.exclusive();
    }

    /**
     * Takes the lock shared, so that no writer is half-way through a change of several files (a purge, a clear)
     * while the caller lists the directory; null, taking nothing, when no writer ever created the lock file.
     */
    StoreLock.Held sharedIfPresent() throws IOException {
        if (!Files.exists(directory.resolve(StoreLock.FILE_NAME))) {
            dropLockIfRemoved();
            return null;
        }
        if (lock == null) {
            lock = StoreLock.acquire(directory.toRealPath());
        }
        return lock.shared();
    }

    /**
     * Why {@code directory} cannot be used, if it or a directory above it is a symbolic link that leads to no
     * directory. A link that does is followed: the memories then live in the directory it leads to.
     */
    static Optional<String> brokenLink(Path directory) {
        for (Path at = directory.toAbsolutePath(); at != null; at = at.getParent()) {
            if (Files.isSymbolicLink(at) && !Files.isDirectory(at)) {
                String target;
                try {
                    target = Files.readSymbolicLink(at).toString();
                } catch (IOException e) {
                    target = "a target that cannot be read";
                }
                return Optional.of(at + " is a symbolic link to " + target + ", which "
                        + (Files.exists(at) ? "is not a directory" : "does not exist, or leads back to itself"));
            }
        }
        return Optional.empty();
    }

    /** Lets go of a lock whose file a person removed (with the directory, say), so that a new one can be taken. */
    private void dropLockIfRemoved() {
        if (lock != null && !Files.exists(directory.resolve(StoreLock.FILE_NAME))) {
            lock.release();
            lock = null;
        }
    }

    /**
     * The generation on disk now: empty before the first write.
     *
     * @throws IOException if the directory is not a directory, or the file is there but cannot be read
     */
    String generation() throws IOException {
        Path file = directory.resolve(GENERATION_FILE);
        for (int attempt = 1; ; attempt++) {
            try {
                return new String(AtomicFiles.readAtMost(file, 256), StandardCharsets.UTF_8);
            } catch (NoSuchFileException | FileNotFoundException e) {
                if (Files.exists(directory) && !Files.isDirectory(directory)) {
                    throw new IOException(directory + " is not a directory", e);
                }
                if (!Files.exists(file)) {
                    return "";
                }
                if (attempt == 2) {
                    throw e; // there, but not readable
                }
                // created by another writer's first write since the attempt: read it
            }
        }
    }

    /** Whether another writer changed the tree since {@link #seen(String)}; returns the generation read. */
    String changedGeneration() throws IOException {
        String now = generation();
        return now.equals(seen) ? null : now;
    }

    /** Records the generation the index is in step with. */
    void seen(String generation) {
        seen = generation;
    }

    /**
     * Announces a change (holding the lock) and records the new generation as seen. Not forced to the disk: it only
     * tells running providers to look again, and a provider opened later reads everything anyway.
     */
    void bump() throws IOException {
        byte[] token = new byte[GENERATION_LENGTH / 2];
        RANDOM.nextBytes(token);
        String next = HexFormat.of().formatHex(token);
        byte[] bytes = next.getBytes(StandardCharsets.UTF_8);
        Path file = directory.resolve(GENERATION_FILE);
        if (Files.exists(file)) {
            // A reader racing this write may see a mix of two generations: that only differs from what it saw, so
            // it looks again, which is right.
            try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
                out.write(bytes);
                out.setLength(bytes.length);
            }
        } else {
            try {
                AtomicFiles.create(directory, file, bytes, false);
            } catch (FileAlreadyExistsException e) {
                seen = "";
                bump();
                return;
            }
        }
        seen = next;
    }

    // ---- git

    /** Before a write, holding the lock exclusively: opens or creates the repository. Never fails. */
    void beginWrite() {
        if (git != null) {
            git.beginWrite();
        }
    }

    /** The current write created, rewrote or deleted {@code path}, a file or a directory. */
    void changed(Path path) {
        if (git != null) {
            git.changed(path);
        }
    }

    /** After a write, still holding the lock: commits what it changed. Never fails. */
    void endWrite(String message) {
        if (git != null) {
            git.endWrite(message);
        }
    }

    /** Whether writes are committed to git, or why not. */
    GitStatus gitStatus() {
        return git == null ? new GitStatus(directory, false, Optional.of(gitOff)) : git.status();
    }

    /** Why git is off, when it was asked for and is off. */
    Optional<StoreProblem> gitProblem() {
        if (!gitWanted) {
            return Optional.empty();
        }
        return gitStatus().offReason().map(reason -> new StoreProblem(directory.toString(), "git is off: " + reason));
    }

    /**
     * What other tools changed in the repository since the provider opened it; empty when git is off. Holds the lock
     * shared, so that no writer is between its files and its commit. A repository that cannot be read switches git
     * off.
     */
    Optional<GitChanges.Directory> gitChanges() {
        if (git == null || !git.status().on()) {
            return Optional.empty();
        }
        try (StoreLock.Held held = sharedIfPresent()) {
            return Optional.of(git.changes());
        } catch (IOException | RuntimeException e) {
            git.failedToRead(e);
            return Optional.empty();
        }
    }

    /** Releases the lock, if it was taken, and closes the repository. */
    void release() {
        if (lock != null) {
            lock.release();
        }
        if (git != null) {
            git.close();
        }
    }
}
