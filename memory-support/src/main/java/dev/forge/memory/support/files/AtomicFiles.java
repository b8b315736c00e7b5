package dev.forge.memory.support.files;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * File operations of the store: writes that never leave a half-written file visible (a temporary file in the
 * same directory, forced to the disk, renamed over the target), hard links, directory fsync, moving damaged
 * files aside, and deleting trees without following symbolic links.
 *
 * <p>None of them uses an interruptible channel except directory fsync, which is retried, so a thread interrupt
 * cannot break a write half-way. On POSIX file systems files are created {@code 0600} and directories
 * {@code 0700}: entries may hold private notes. Every name this class makes fits the 143 bytes of eCryptfs.
 */
public final class AtomicFiles {

    private static final Logger LOG = LoggerFactory.getLogger(AtomicFiles.class);

    /** Temporary files (and directories renamed out of the way) are {@code .tmp-} and 16 hex digits; leftovers are removed at open. */
    public static final String TEMP_PREFIX = ".tmp-";
    /** The infix of a damaged file moved aside: {@code NAME.corrupt-TIMESTAMP}. */
    public static final String CORRUPT_INFIX = ".corrupt-";
    /** The longest file name this class makes, in bytes: eCryptfs's limit, the smallest of common file systems. */
    public static final int MAX_NAME_BYTES = 143;

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final boolean WINDOWS = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
    private static final FileAttribute<?> PRIVATE_FILE = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    private static final FileAttribute<?> PRIVATE_DIRECTORY = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
    private static final FileAttribute<?>[] NONE = new FileAttribute<?>[0];

    private AtomicFiles() {
    }

    /** A fresh temporary name in {@code directory}. */
    public static Path tempName(Path directory) {
        return directory.resolve(TEMP_PREFIX + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()));
    }

    private static boolean posix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /**
     * The attributes a new file of the store gets, for {@code Files.createFile} or {@code FileChannel.open}:
     * {@code 0600} where the file system has POSIX permissions (whatever the umask), none elsewhere.
     */
    public static FileAttribute<?>[] privateFile(Path path) {
        return posix(path) ? new FileAttribute<?>[] {PRIVATE_FILE} : NONE;
    }

    /** Creates {@code directory} and its missing parents, {@code 0700} where supported; with {@code fsync}, durably. */
    public static void createDirectories(Path directory, boolean fsync) throws IOException {
        if (Files.isDirectory(directory)) {
            return;
        }
        Path existing = directory;
        while (existing != null && !Files.isDirectory(existing)) {
            existing = existing.getParent();
        }
        Files.createDirectories(directory, posix(directory) ? new FileAttribute<?>[] {PRIVATE_DIRECTORY} : NONE);
        if (fsync) {
            for (Path created = directory.getParent(); created != null; created = created.getParent()) {
                syncDirectory(created);
                if (created.equals(existing)) {
                    break;
                }
            }
        }
    }

    /**
     * Writes {@code bytes} to {@code target} atomically: readers see the old content or the new one, never a part.
     *
     * @param tempDirectory where the temporary file goes; on the same file system as {@code target}
     * @param fsync         whether to force the data and the rename to the disk
     */
    public static void write(Path tempDirectory, Path target, byte[] bytes, boolean fsync) throws IOException {
        put(tempDirectory, target, bytes, fsync);
        if (fsync) {
            syncDirectory(target.getParent());
        }
    }

    /**
     * Creates {@code target} with {@code bytes}, atomically and only if it does not exist: readers never see a part
     * of it, and an existing file is never replaced. The content is written to a temporary file first, then given
     * the target's name by a hard link, which fails if the name is taken. Where the file system has no hard links it
     * is moved without replacing, which on POSIX checks and then renames: there the promise holds only among writers
     * that hold one lock, such as a {@link StoreLock}.
     *
     * @param tempDirectory where the temporary file goes; on the same file system as {@code target}
     * @param fsync         whether to force the data and the new name to the disk
     * @throws FileAlreadyExistsException if {@code target} exists; nothing is changed
     */
    public static void create(Path tempDirectory, Path target, byte[] bytes, boolean fsync) throws IOException {
        Path temp = writeTemp(tempDirectory, bytes, fsync);
        try {
            try {
                Files.createLink(target, temp);
            } catch (UnsupportedOperationException | FileSystemException e) {
                if (e instanceof FileAlreadyExistsException || e instanceof NoSuchFileException
                        || e instanceof AccessDeniedException) {
                    throw e;
                }
                LOG.debug("Cannot hard-link {} ({}); moving it without replacing", temp, e.toString());
                Files.move(temp, target);
            }
        } finally {
            deleteQuietly(temp);
        }
        if (fsync) {
            syncDirectory(target.getParent());
        }
    }

    /** {@link #write} without forcing the rename to the disk: the caller syncs the directory. */
    public static void put(Path tempDirectory, Path target, byte[] bytes, boolean fsync) throws IOException {
        moveInto(writeTemp(tempDirectory, bytes, fsync), target);
    }

    private static Path writeTemp(Path directory, byte[] bytes, boolean fsync) throws IOException {
        Path temp = createTemp(directory);
        try (FileOutputStream out = new FileOutputStream(temp.toFile())) {
            out.write(bytes);
            if (fsync) {
                out.getFD().sync();
            }
        } catch (IOException | RuntimeException | Error e) {
            deleteQuietly(temp);
            throw e;
        }
        return temp;
    }

    private static Path createTemp(Path directory) throws IOException {
        while (true) {
            Path temp = tempName(directory);
            try {
                return Files.createFile(temp, privateFile(temp));
            } catch (FileAlreadyExistsException e) {
                // a 64-bit collision; draw again
            }
        }
    }

    /** Renames {@code temp} over {@code target}, removing {@code temp} if that fails. */
    private static void moveInto(Path temp, Path target) throws IOException {
        boolean moved = false;
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            moved = true;
        } finally {
            if (!moved) {
                deleteQuietly(temp);
            }
        }
    }

    private static void deleteQuietly(Path temp) {
        try {
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            LOG.debug("Cannot remove the temporary file {}; it is removed at the next open", temp, e);
        }
    }

    /**
     * Makes {@code target} another name of the file {@code source} (a hard link), replacing what {@code target}
     * was; where the file system has no hard links, a copy (forced to the disk when {@code fsync}). The caller
     * syncs the target's directory.
     *
     * @param tempDirectory where a temporary name goes when {@code target} exists; on the same file system
     */
    public static void link(Path source, Path target, Path tempDirectory, boolean fsync) throws IOException {
        try {
            Files.createLink(target, source);
        } catch (FileAlreadyExistsException e) {
            moveInto(tempLink(source, tempDirectory, fsync), target);
        } catch (UnsupportedOperationException | FileSystemException e) {
            if (e instanceof NoSuchFileException || e instanceof AccessDeniedException) {
                throw e;
            }
            LOG.debug("Cannot hard-link {} ({}); copying it", source, e.toString());
            moveInto(writeTemp(tempDirectory, readAll(source), fsync), target);
        }
    }

    private static Path tempLink(Path source, Path directory, boolean fsync) throws IOException {
        Path temp = tempName(directory);
        try {
            return Files.createLink(temp, source);
        } catch (UnsupportedOperationException | FileSystemException e) {
            if (e instanceof NoSuchFileException || e instanceof AccessDeniedException) {
                throw e;
            }
            return writeTemp(directory, readAll(source), fsync);
        }
    }

    /**
     * Forces a directory's entries (renames, deletions) to the disk. Skipped on Windows, which cannot open a
     * directory for this and where a rename is durable on its own; anywhere else a failure is an error.
     */
    public static void syncDirectory(Path directory) throws IOException {
        if (WINDOWS) {
            return;
        }
        Interrupts.retrying(() -> {
            try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
                channel.force(true);
            }
            return null;
        });
    }

    /** Reads a whole file without an interruptible channel. */
    public static byte[] readAll(Path file) throws IOException {
        try (FileInputStream in = new FileInputStream(file.toFile())) {
            return in.readAllBytes();
        }
    }

    /**
     * Reads at most {@code limit + 1} bytes of a file without an interruptible channel, allocating as it goes;
     * a result longer than {@code limit} means the file is larger.
     */
    public static byte[] readAtMost(Path file, int limit) throws IOException {
        try (FileInputStream in = new FileInputStream(file.toFile())) {
            return in.readNBytes(limit + 1);
        }
    }

    /**
     * Renames a damaged file (or directory, or link, never followed) to {@code NAME.corrupt-TIMESTAMP} beside
     * it, adding {@code -2}, {@code -3}... if taken, so that it is kept for a person to inspect but no longer read.
     * A name that would be over {@value #MAX_NAME_BYTES} bytes is shortened to a prefix, {@code ~} and a digest.
     *
     * @return where the file now is
     */
    public static Path moveAside(Path file, Instant now) throws IOException {
        String stamp = STAMP.format(now);
        for (int attempt = 1; ; attempt++) {
            Path aside = file.resolveSibling(asideName(file.getFileName().toString(), stamp, attempt));
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

    static String asideName(String fileName, String stamp, int attempt) {
        String suffix = CORRUPT_INFIX + stamp + (attempt == 1 ? "" : "-" + attempt);
        String name = fileName + suffix;
        if (name.getBytes(StandardCharsets.UTF_8).length <= MAX_NAME_BYTES) {
            return name;
        }
        // Store file names are ASCII, so characters are bytes.
        String digest = "~" + sha256(fileName).substring(0, 16);
        return fileName.substring(0, MAX_NAME_BYTES - suffix.length() - digest.length()) + digest + suffix;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /**
     * Deletes a file, a link or a directory with everything in it; a missing one is fine. Never follows a
     * symbolic link: a link is removed, not what it points to, at the top as below.
     */
    public static void deleteTree(Path path) throws IOException {
        Path absolute = path.toAbsolutePath();
        Path parent = absolute.getParent();
        if (parent != null) {
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(parent)) {
                if (stream instanceof SecureDirectoryStream<Path> secure) {
                    deleteEntry(secure, absolute.getFileName());
                    return;
                }
            } catch (NoSuchFileException e) {
                return;
            }
        }
        deleteByPath(absolute);
    }

    /** Deletes relative to open directories (openat, unlinkat), so that no name can be swapped for a link underneath. */
    private static void deleteEntry(SecureDirectoryStream<Path> directory, Path name) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = directory.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
        } catch (NoSuchFileException e) {
            return;
        }
        try {
            if (attributes.isDirectory()) {
                try (SecureDirectoryStream<Path> child = directory.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
                    for (Path entry : child) {
                        deleteEntry(child, entry.getFileName());
                    }
                }
                directory.deleteDirectory(name);
            } else {
                directory.deleteFile(name);
            }
        } catch (NoSuchFileException e) {
            // removed meanwhile
        }
    }

    /** The same where the platform has no secure directory streams. */
    private static void deleteByPath(Path path) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return;
        }
        if (attributes.isDirectory()) {
            try (DirectoryStream<Path> children = Files.newDirectoryStream(path)) {
                for (Path child : children) {
                    deleteByPath(child);
                }
            } catch (NoSuchFileException e) {
                return;
            }
        }
        Files.deleteIfExists(path);
    }

    /** Removes temporary files a crashed writer left in {@code directory}; call only while holding the store lock. */
    public static void removeStaleTempFiles(Path directory) throws IOException {
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (DirectoryStream<Path> children = Files.newDirectoryStream(directory, AtomicFiles::isTempFile)) {
            for (Path child : children) {
                LOG.debug("Removing {}, left by a write that did not finish", child);
                deleteTree(child);
            }
        }
    }

    /** Whether {@code path} names a temporary file of this class. */
    public static boolean isTempFile(Path path) {
        return path.getFileName().toString().startsWith(TEMP_PREFIX);
    }
}
