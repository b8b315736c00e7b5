package dev.forge.memory.sqlite.internal;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A private directory for sqlite-jdbc's native library.
 *
 * <p>sqlite-jdbc copies its native library out of its jar into {@code org.sqlite.tmpdir}, by default
 * {@code java.io.tmpdir}, and first deletes every {@code sqlite-<version>-*} entry there that has no {@code .lck}
 * file beside it. In a shared {@code /tmp} anyone can create such an entry: a non-empty directory cannot be deleted,
 * and sqlite-jdbc logs that at ERROR with a stack trace on every start (its other entries are another user's, not ours
 * to delete either). So, unless the user chose {@code org.sqlite.tmpdir}, it is set to a directory of the current
 * user's alone: {@code <java.io.tmpdir>/forge-memory-sqlite-<user>}, created {@code 0700}, and used only while it is a
 * real directory (not a link) owned by this user that nobody else may enter; otherwise a new private directory with a
 * random name, removed when the JVM exits.
 */
public final class NativeLibraryDirectory {

    /** The system property sqlite-jdbc reads its extraction directory from. */
    public static final String PROPERTY = "org.sqlite.tmpdir";

    private static final Logger LOG = LoggerFactory.getLogger(NativeLibraryDirectory.class);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private static boolean prepared;

    private NativeLibraryDirectory() {
    }

    /**
     * Sets {@value #PROPERTY} to a private directory unless it is set already; once per JVM, before the first
     * connection loads the library. Where no such directory can be made, leaves sqlite-jdbc's default.
     */
    public static synchronized void prepare() {
        if (prepared) {
            return;
        }
        prepared = true;
        if (System.getProperty(PROPERTY) != null) {
            return;
        }
        Path base = Path.of(System.getProperty("java.io.tmpdir"));
        Optional<Path> directory = privateDirectory(base, System.getProperty("user.name", ""));
        directory.ifPresent(d -> System.setProperty(PROPERTY, d.toString()));
        LOG.debug("sqlite-jdbc extracts its native library into {}", directory.map(Path::toString).orElse(base + " (its default)"));
    }

    /**
     * A directory under {@code base} that only {@code user} can use: the one named after the user where it is (or can
     * be made) such a directory, else a new one with a random name. Empty where neither can be made.
     */
    public static Optional<Path> privateDirectory(Path base, String user) {
        String name = "forge-memory-sqlite-" + user.replaceAll("[^A-Za-z0-9._-]", "_");
        Path stable = base.resolve(name);
        boolean posix = base.getFileSystem().supportedFileAttributeViews().contains("posix");
        try {
            Files.createDirectory(stable, attributes(posix));
            return Optional.of(stable);
        } catch (FileAlreadyExistsException e) {
            if (ownedAndPrivate(stable, user, posix)) {
                return Optional.of(stable);
            }
            LOG.debug("{} is not a private directory of {}: using another", stable, user);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.debug("Cannot create {}", stable, e);
        }
        try {
            Path fresh = Files.createTempDirectory(base, name + "-", attributes(posix));
            fresh.toFile().deleteOnExit(); // after the library files sqlite-jdbc marks the same way, so it is empty then
            return Optional.of(fresh);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.debug("Cannot create a private directory under {}", base, e);
            return Optional.empty();
        }
    }

    private static FileAttribute<?>[] attributes(boolean posix) {
        return posix ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)} : new FileAttribute<?>[0];
    }

    private static boolean ownedAndPrivate(Path directory, String user, boolean posix) {
        try {
            if (!posix) {
                return Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS);
            }
            PosixFileAttributes attributes = Files.readAttributes(directory, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            UserPrincipal me = directory.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(user);
            return attributes.isDirectory() && attributes.owner().equals(me) && attributes.permissions().equals(OWNER_ONLY);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
