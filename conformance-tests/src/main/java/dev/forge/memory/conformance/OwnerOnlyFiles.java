package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;

/**
 * Checks that a store keeps its files private on POSIX file systems: nothing under it may be readable, writable or
 * searchable by the group or by others, whatever the process's umask. Memories may hold private notes.
 */
public final class OwnerOnlyFiles {

    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private OwnerOnlyFiles() {
    }

    /**
     * Every file and directory under {@code root} (not {@code root} itself; symbolic links are not followed) that the
     * group or others may use, as {@code "relative/path rwxr-xr-x"}, sorted; empty if all are owner-only.
     */
    public static List<String> exposed(Path root) {
        List<String> exposed = new ArrayList<>();
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    if (!dir.equals(root)) {
                        check(dir);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    if (!attrs.isSymbolicLink()) {
                        check(file);
                    }
                    return FileVisitResult.CONTINUE;
                }

                private void check(Path path) throws IOException {
                    Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
                    if (permissions.stream().anyMatch(OTHERS::contains)) {
                        exposed.add(root.relativize(path).toString().replace('\\', '/') + " "
                                + PosixFilePermissions.toString(permissions));
                    }
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        exposed.sort(null);
        return List.copyOf(exposed);
    }

    /**
     * Opens a provider on {@code store} with {@code open}, sets, overwrites and deletes entries in every scope, and
     * asserts that nothing under {@code store} is {@linkplain #exposed exposed}, while the provider is open and after
     * it is closed. Skips the test (a JUnit assumption) where the file system has no POSIX permissions.
     */
    public static void assertAfterWrites(Path store, java.util.function.Supplier<MemoryProvider> open) {
        Assumptions.assumeTrue(posix(store), "POSIX permissions only");
        try (MemoryProvider provider = open.get()) {
            provider.set("note", "a private note", Scope.PROJECT, List.of("t"), Map.of("m", "v"));
            provider.set("note", "a private note, changed", Scope.PROJECT);
            provider.set("mine", "a session note", Scope.SESSION);
            provider.set("everyone", "a global note", Scope.GLOBAL);
            provider.delete("mine", Scope.SESSION);
            assertThat(exposed(store)).as("files the group or others may use, while the provider is open").isEmpty();
        }
        assertThat(exposed(store)).as("files the group or others may use, after close").isEmpty();
    }

    /** Whether {@code path}'s file system has POSIX permissions (tests of this class are meaningless elsewhere). */
    public static boolean posix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
