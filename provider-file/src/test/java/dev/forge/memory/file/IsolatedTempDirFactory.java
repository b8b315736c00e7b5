package dev.forge.memory.file;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * Creates each {@code @TempDir} as {@code <system temp>/forge-file-XXXX/store}, so that its parent belongs to the
 * test alone. {@code BadInputContract.path_like_keys_write_nothing_outside_the_store_directory} lists the parent
 * of the store directory before and after writing; with the default factory that parent is the system temp
 * directory, where other processes create and remove files at any time. Registered in
 * {@code junit-platform.properties}.
 */
public final class IsolatedTempDirFactory implements TempDirFactory {

    private static final Queue<Path> PARENTS = new ConcurrentLinkedQueue<>();

    /** Used by JUnit. */
    public IsolatedTempDirFactory() {
    }

    @Override
    public Path createTempDirectory(AnnotatedElementContext elementContext, ExtensionContext extensionContext) throws IOException {
        Path parent = Files.createTempDirectory("forge-file-");
        PARENTS.add(parent);
        return Files.createDirectory(parent.resolve("store"));
    }

    /** Removes the parents whose temp directory JUnit has already deleted. */
    @Override
    public void close() throws IOException {
        for (Iterator<Path> it = PARENTS.iterator(); it.hasNext(); ) {
            Path parent = it.next();
            if (Files.notExists(parent.resolve("store"))) {
                try {
                    Files.deleteIfExists(parent);
                    it.remove();
                } catch (DirectoryNotEmptyException e) {
                    // something else was left there; keep it for a person to look at
                    it.remove();
                }
            }
        }
    }
}
