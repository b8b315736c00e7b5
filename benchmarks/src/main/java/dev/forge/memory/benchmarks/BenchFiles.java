package dev.forge.memory.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The temporary directories benchmark stores live in: made in a trial's setup, deleted in its teardown. */
public final class BenchFiles {

    private BenchFiles() {
    }

    /** A new empty directory under the system's temporary directory, its name starting with {@code prefix}. */
    public static Path createTempDirectory(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a temporary directory for " + prefix, e);
        }
    }

    /** Deletes {@code root} and everything under it; nothing when it is missing. */
    public static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + root, e);
        }
    }
}
