package dev.forge.memory.markdown.internal;

import dev.forge.memory.spi.files.AtomicFiles;
import dev.forge.memory.spi.files.StoreLock;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * A directory tree writers share: the project's memory directory (with its session directories) or the global one.
 * It has a {@link StoreLock} that every writer holds while it changes files, and a generation file that every writer
 * replaces after a change, so that other providers, in this JVM or another process, see at their next call that
 * they must look at the disk again.
 *
 * <p>The lock and its {@code .lock} file are only created by the first write: opening a provider to read creates
 * nothing.
 */
final class Root {

    /** The name of the generation file. */
    static final String GENERATION_FILE = ".generation";

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

    /** Creates the directory ({@code 0700}) if needed and takes its lock exclusively. */
    StoreLock.Held exclusive() throws IOException {
        if (lock == null) {
            AtomicFiles.createDirectories(directory, fsync);
            lock = StoreLock.acquire(directory.toRealPath());
        }
        return lock.exclusive();
    }

    /** Takes the lock if the directory exists already; null if it does not. */
    StoreLock.Held exclusiveIfPresent() throws IOException {
        return Files.isDirectory(directory) ? exclusive() : null;
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

    /** Announces a change: writes a new generation (holding the lock) and records it as seen. */
    void bump() throws IOException {
        byte[] token = new byte[8];
        RANDOM.nextBytes(token);
        String next = System.currentTimeMillis() + "-" + HexFormat.of().formatHex(token);
        // Not forced to the disk: it only tells running providers to look again, and a new one reads everything.
        AtomicFiles.put(directory, directory.resolve(GENERATION_FILE), next.getBytes(StandardCharsets.UTF_8), false);
        seen = next;
    }

    /** Releases the lock, if it was taken. */
    void release() {
        if (lock != null) {
            lock.release();
        }
    }
}
