package dev.forge.memory.benchmarks.markdown;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A store of a fixed size that a benchmark writes one new key into per invocation: filled without fsync (the files
 * are the same, and filling is not timed), then reopened at the provider's default settings. The key written is
 * purged after each invocation, outside the timing, so the store keeps its size however long the run.
 * Subclasses are JMH states that call {@link #start} from their trial setup.
 */
public abstract class WriteStore {

    private MemoryProvider provider;
    private Path root;
    private int next;
    private String written;

    /** Creates a store of {@code backend} with {@code size} memories and opens it for the timed writes. */
    protected void start(BenchStores.Backend backend, int size) {
        root = BenchStores.newDirectory(backend.name().toLowerCase(Locale.ROOT) + "-" + size);
        try (MemoryProvider filler = backend.open(root, false)) {
            BenchStores.fill(filler, 0, size);
        }
        provider = backend.open(root, true);
        next = size;
    }

    /** Writes the next new key. */
    public MemoryEntry writeNext() {
        written = BenchStores.key(next);
        return provider.set(written, BenchStores.value(next++), Scope.PROJECT, List.of(BenchStores.TAG), Map.of());
    }

    /** Purges the key just written, so that the store keeps its size. */
    @TearDown(Level.Invocation)
    public void purgeWritten() {
        if (written != null) {
            provider.requireHistory().purge(written, Scope.PROJECT);
            written = null;
        }
    }

    /** Closes the provider and removes the store. */
    @TearDown(Level.Trial)
    public void tearDown() {
        if (provider != null) {
            provider.close();
        }
        BenchStores.deleteTree(root);
    }
}
