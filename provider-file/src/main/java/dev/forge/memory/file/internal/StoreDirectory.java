package dev.forge.memory.file.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The store directory as configured. It may be a symbolic link (or lie under one), which is followed: the store then
 * lives wholly in the directory the link leads to. A link that leads to no directory is refused with this explanation,
 * never "repaired" by creating directories where it points.
 */
final class StoreDirectory {

    private StoreDirectory() {
    }

    /** Why {@code directory} cannot be used, if it or a directory above it is a link that leads to no directory. */
    static Optional<String> brokenLink(Path directory) {
        for (Path at = directory.toAbsolutePath(); at != null; at = at.getParent()) {
            if (!Files.isSymbolicLink(at) || Files.isDirectory(at)) {
                continue;
            }
            String leads;
            try {
                at.toRealPath();
                leads = "which is not a directory";
            } catch (NoSuchFileException e) {
                leads = "which does not exist";
            } catch (IOException e) {
                leads = "which cannot be followed (" + e.getMessage() + ")";
            }
            return Optional.of(at + " is a symbolic link to " + target(at) + ", " + leads);
        }
        return Optional.empty();
    }

    private static String target(Path link) {
        try {
            return Files.readSymbolicLink(link).toString();
        } catch (IOException e) {
            return "a target that cannot be read";
        }
    }
}
