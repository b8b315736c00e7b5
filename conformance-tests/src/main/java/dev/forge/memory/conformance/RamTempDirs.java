package dev.forge.memory.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * A {@link TempDirFactory} that puts {@code @TempDir} directories on a RAM file system when the machine has a large
 * enough one, else where JUnit puts them. The stores under test still write real files through the real file system
 * calls, and a killed process leaves them as on disk (the page cache survives a SIGKILL); what goes away is the
 * waiting for the device on every {@code fsync}, about a fifth of a provider module's test time. Enable it for a test
 * run with the JUnit configuration parameter
 * {@code junit.jupiter.tempdir.factory.default=dev.forge.memory.conformance.RamTempDirs}.
 *
 * <p>The directory is, in order: the system property {@code forge.test.tmpdir} when set (empty: JUnit's default);
 * else {@code /dev/shm/forge-memory-tests} when {@code /dev/shm} is a writable tmpfs with at least
 * {@value #MIN_FREE_GIB} GiB free; else JUnit's default (the system temporary directory).
 */
public final class RamTempDirs implements TempDirFactory {

    /** The free space a RAM file system needs to be used: the tests' peak use is far below it. */
    static final int MIN_FREE_GIB = 2;

    private static final Optional<Path> ROOT = root();

    /** Used by JUnit, which makes one factory per directory. */
    public RamTempDirs() {
    }

    @Override
    public Path createTempDirectory(AnnotatedElementContext elementContext, ExtensionContext extensionContext)
            throws IOException {
        return ROOT.isPresent() ? Files.createTempDirectory(ROOT.get(), "junit") : Files.createTempDirectory("junit");
    }

    /** Where the directories go; empty for JUnit's default. */
    static Optional<Path> root() {
        String configured = System.getProperty("forge.test.tmpdir");
        if (configured != null) {
            return configured.isBlank() ? Optional.empty() : Optional.of(created(Path.of(configured)));
        }
        Path shm = Path.of("/dev/shm");
        try {
            if (!Files.isDirectory(shm) || !Files.isWritable(shm)) {
                return Optional.empty();
            }
            FileStore store = Files.getFileStore(shm);
            if (!"tmpfs".equals(store.type()) || store.getUsableSpace() < (long) MIN_FREE_GIB << 30) {
                return Optional.empty();
            }
            Path root = created(shm.resolve("forge-memory-tests"));
            return Files.isWritable(root) ? Optional.of(root) : Optional.empty();
        } catch (IOException | UncheckedIOException | SecurityException e) {
            return Optional.empty();
        }
    }

    private static Path created(Path directory) {
        try {
            return Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the test directory " + directory, e);
        }
    }
}
