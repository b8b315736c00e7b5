package dev.forge.memory.benchmarks.markdown;

import dev.forge.memory.MemoryProvider;
import java.nio.file.Path;
import java.util.Locale;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A store written once per trial for a cold open: filled without fsync (the files are the same, and filling is not
 * timed), then closed, so that each timed open starts from the files alone. Subclasses are JMH states that call
 * {@link #start} from their trial setup.
 */
public abstract class ColdStore {

    private Path root;
    private Path files;
    private String probe;

    /** Creates a store of {@code backend} with {@code size} memories and closes it. */
    protected void start(BenchStores.Backend backend, int size) {
        root = BenchStores.newDirectory(backend.name().toLowerCase(Locale.ROOT) + "-cold");
        try (MemoryProvider provider = backend.open(root, false)) {
            BenchStores.fill(provider, 0, size);
            files = backend.entryDirectory(provider);
        }
        probe = BenchStores.key(size / 2);
    }

    /** The directory the store lies in, to open it again. */
    public Path root() {
        return root;
    }

    /** The directory that holds the project's entry files, for the raw baseline. */
    public Path files() {
        return files;
    }

    /** The key to get: the middle one. */
    public String probe() {
        return probe;
    }

    /** Removes the store. */
    @TearDown(Level.Trial)
    public void tearDown() {
        BenchStores.deleteTree(root);
    }
}
