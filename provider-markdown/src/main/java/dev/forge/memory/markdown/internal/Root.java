package dev.forge.memory.markdown.internal;

import dev.forge.memory.spi.files.AtomicFiles;
import dev.forge.memory.spi.files.StoreLock;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * A directory tree writers share: the project's memory directory (with its session directories) or the global one.
 * It has a {@link StoreLock} that every writer holds while it changes files, and a generation file that every writer
 * overwrites after a change, so that other providers, in this JVM or another process, see at their next call that
 * they must look at the disk again.
 *
 * <p>The directory, the lock and its {@code .lock} file are only created by the first write: opening a provider to
 * read creates nothing. The generation is overwritten in place, not replaced by a rename, so that announcing a change
 * does not change the directory's modification time, which the provider watches for files a person adds or removes.
 */
final class Root {

    /** The name of the generation file. */
    static final String GENERATION_FILE = ".generation";

    /** Every generation has this many characters, so that an overwrite in place never leaves a longer old tail. */
    private static final int GENERATION_LENGTH = 32;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path directory;
    private final boolean fsync;
    private StoreLock lock;
    private String seen = "";

    Root(Path directory, boolean fsync) {
        this.directory = directory;
        this.fsync = fsync;
    }

    Path directory() {
        return directory;
    }

    /**
     * Creates the directory ({@code 0700}) if needed and takes its lock exclusively. If the directory or its lock
     * file was deleted while the provider was open (a person resetting their memories), they are created again.
     */
    StoreLock.Held exclusive() throws IOException {
        AtomicFiles.createDirectories(directory, fsync);
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

    /** Releases the lock, if it was taken. */
    void release() {
        if (lock != null) {
            lock.release();
        }
    }
}
