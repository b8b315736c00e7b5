package dev.forge.memory.file.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * File operations that never leave a half-written file visible: write to a temporary file in the same
 * directory, force it to the disk, then rename it over the target atomically.
 */
public final class AtomicFiles {

    private static final Logger LOG = LoggerFactory.getLogger(AtomicFiles.class);

    /** Temporary files start with this and end with {@link #TEMP_SUFFIX}; leftovers of a crash are removed at open. */
    public static final String TEMP_PREFIX = ".";
    /** The suffix of temporary files. */
    public static final String TEMP_SUFFIX = ".tmp";
    /** The infix of a corrupt file moved aside: {@code NAME.corrupt-TIMESTAMP}. */
    public static final String CORRUPT_INFIX = ".corrupt-";

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

    private AtomicFiles() {
    }

    /**
     * Writes {@code bytes} to {@code target} atomically: readers see the old content or the new one, never a part.
     *
     * @param tempDirectory where the temporary file goes; on the same file system as {@code target}
     * @param fsync         whether to force the data and the rename to the disk
     */
    public static void write(Path tempDirectory, Path target, byte[] bytes, boolean fsync) throws IOException {
        Path temp = tempDirectory.resolve(TEMP_PREFIX + target.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong())
                + TEMP_SUFFIX);
        boolean moved = false;
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                if (fsync) {
                    channel.force(true);
                }
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            moved = true;
            if (fsync) {
                syncDirectory(target.getParent());
            }
        } finally {
            if (!moved) {
                Files.deleteIfExists(temp);
            }
        }
    }

    /**
     * Forces a directory's entries (renames, deletions) to the disk. A no-op where the platform cannot open a
     * directory for this (Windows), since there a rename is durable on its own.
     */
    public static void syncDirectory(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            LOG.trace("Cannot force directory {} to disk", directory, e);
        }
    }

    /**
     * Renames a damaged file to {@code NAME.corrupt-TIMESTAMP} beside it (adding {@code -2}, {@code -3}... if
     * taken), so that it is kept for a person to inspect but no longer read.
     *
     * @return where the file now is
     */
    public static Path moveAside(Path file, Instant now) throws IOException {
        String base = file.getFileName() + CORRUPT_INFIX + STAMP.format(now);
        for (int attempt = 1; ; attempt++) {
            Path aside = file.resolveSibling(attempt == 1 ? base : base + "-" + attempt);
            try {
                // No ATOMIC_MOVE: on POSIX it would silently replace an earlier copy; a plain move refuses to.
                Files.move(file, aside);
                return aside;
            } catch (FileAlreadyExistsException e) {
                if (attempt > 1000) {
                    throw e;
                }
            }
        }
    }

    /** Deletes a directory and everything in it; a missing directory is fine. */
    public static void deleteTree(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return;
        }
        try (DirectoryStream<Path> children = Files.newDirectoryStream(directory)) {
            for (Path child : children) {
                if (Files.isDirectory(child, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    deleteTree(child);
                } else {
                    Files.deleteIfExists(child);
                }
            }
        } catch (NoSuchFileException e) {
            return;
        }
        Files.deleteIfExists(directory);
    }

    /** Removes temporary files a crashed writer left in {@code directory}; call only while holding the store lock. */
    public static void removeStaleTempFiles(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return;
        }
        try (DirectoryStream<Path> children = Files.newDirectoryStream(directory, AtomicFiles::isTempFile)) {
            for (Path child : children) {
                LOG.debug("Removing {}, left by a write that did not finish", child);
                Files.deleteIfExists(child);
            }
        }
    }

    /** Whether {@code path} names a temporary file of {@link #write}. */
    public static boolean isTempFile(Path path) {
        String name = path.getFileName().toString();
        return name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX);
    }
}
