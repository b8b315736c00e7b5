package dev.forge.memory.benchmarks.file;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.benchmarks.Measure;
import dev.forge.memory.benchmarks.markdown.BenchStores;
import dev.forge.memory.benchmarks.markdown.ColdStore;
import dev.forge.memory.benchmarks.markdown.WriteStore;
import dev.forge.memory.file.FileMemoryProvider;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The file provider at its default settings ({@code fsync: true}, no compression).
 *
 * <ul>
 *   <li>{@code coldOpen}: a fresh provider on a store of {@code entries} entries, and one {@code get}, against
 *       listing the project's directory, reading every entry file and parsing it with Jackson into a map keyed by
 *       the entry's key.</li>
 *   <li>{@code setScaling}: {@code set} of a new key into a store already holding {@code entries} entries, against
 *       the same {@code set} into one holding {@value #SMALL}: the speed at {@code entries} relative to the speed at
 *       {@value #SMALL}. The key is purged after each invocation, so both stores keep their size.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@Fork(1)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
public class FileBench {

    /** The size of the small store {@code setScaling_baseline} writes into. */
    public static final int SMALL = 100;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> FIELDS = new TypeReference<>() { };

    /** Entries in the store opened cold, and in the large store of {@code setScaling}. */
    @Param("10000")
    public int entries;

    /** A store of {@code entries} entries, written once per trial. */
    @State(org.openjdk.jmh.annotations.Scope.Benchmark)
    public static class Cold extends ColdStore {

        /** Writes the entries. */
        @Setup(Level.Trial)
        public void setUp(FileBench bench) {
            start(BenchStores.Backend.FILE, bench.entries);
        }
    }

    /** The file store of {@code entries} entries. */
    @State(org.openjdk.jmh.annotations.Scope.Benchmark)
    public static class LargeStore extends WriteStore {

        /** Fills the store. */
        @Setup(Level.Trial)
        public void setUp(FileBench bench) {
            start(BenchStores.Backend.FILE, bench.entries);
        }
    }

    /** The file store of {@value #SMALL} entries. */
    @State(org.openjdk.jmh.annotations.Scope.Benchmark)
    public static class SmallStore extends WriteStore {

        /** Fills the store. */
        @Setup(Level.Trial)
        public void setUp() {
            start(BenchStores.Backend.FILE, SMALL);
        }
    }

    /** Opens a fresh provider on the store and gets one key. */
    @Benchmark
    @Measure(value = "file cold open of the store + one get vs listing, reading and JSON-parsing the files raw",
            target = 0.8)
    public Optional<MemoryEntry> coldOpen_ours(Cold cold) {
        try (FileMemoryProvider provider = BenchStores.openFile(cold.root(), true)) {
            return provider.get(cold.probe(), Scope.PROJECT);
        }
    }

    /** Lists the project directory, reads and JSON-parses every entry file, and keys them by their key. */
    @Benchmark
    public Map<String, Object> coldOpen_baseline(Cold cold) throws IOException {
        Map<String, Map<String, Object>> byKey = new HashMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(cold.files(), "*.json")) {
            for (Path file : files) {
                Map<String, Object> entry = JSON.readValue(Files.readAllBytes(file), FIELDS);
                byKey.put((String) entry.get("key"), entry);
            }
        }
        return byKey.get(cold.probe());
    }

    /** {@code set} of a new key into the store of {@code entries} entries. */
    @Benchmark
    @Measure(value = "file set into a store of `entries` entries vs into one of 100 (no O(n) work per write)",
            target = 1 / 1.5)
    public MemoryEntry setScaling_ours(LargeStore store) {
        return store.writeNext();
    }

    /** The same {@code set} into the store of {@value #SMALL} entries. */
    @Benchmark
    public MemoryEntry setScaling_baseline(SmallStore store) {
        return store.writeNext();
    }
}
