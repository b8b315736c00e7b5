package dev.forge.memory.benchmarks.markdown;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.benchmarks.Measure;
import dev.forge.memory.markdown.MarkdownMemoryProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
 * The markdown provider at its default settings ({@code fsync: true}, standard layout, git off).
 *
 * <ul>
 *   <li>{@code coldOpen}: a fresh provider on a directory of {@code entries} memory files, and one {@code get}
 *       (the index is built at open), against listing the directory, reading every file, splitting off its
 *       front-matter, parsing that with Jackson YAML into a map and keeping the highest version of each key.</li>
 *   <li>{@code setScaling}: {@code set} of a new key into a store already holding {@code entries} memories, against
 *       the same {@code set} into one holding {@value #SMALL}: the ratio is the speed at {@code entries} relative to
 *       the speed at {@value #SMALL}, so 1.0 means no work that grows with the store. The key is purged after each
 *       invocation, so both stores keep their size.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@Fork(1)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
public class MarkdownBench {

    /** The size of the small store {@code setScaling_baseline} writes into. */
    public static final int SMALL = 100;

    private static final YAMLMapper YAML = new YAMLMapper();
    private static final TypeReference<Map<String, Object>> FIELDS = new TypeReference<>() { };

    /** Memories in the store opened cold, and in the large store of {@code setScaling}. */
    @Param("10000")
    public int entries;

    /** A directory of {@code entries} memory files, written once per trial. */
    @State(org.openjdk.jmh.annotations.Scope.Benchmark)
    public static class Cold extends ColdStore {

        /** Writes the memories. */
        @Setup(Level.Trial)
        public void setUp(MarkdownBench bench) {
            start(BenchStores.Backend.MARKDOWN, bench.entries);
        }
    }

    /** The markdown store of {@code entries} memories. */
    @State(org.openjdk.jmh.annotations.Scope.Benchmark)
    public static class LargeStore extends WriteStore {

        /** Fills the store. */
        @Setup(Level.Trial)
        public void setUp(MarkdownBench bench) {
            start(BenchStores.Backend.MARKDOWN, bench.entries);
        }
    }

    /** The markdown store of {@value #SMALL} memories. */
    @State(org.openjdk.jmh.annotations.Scope.Benchmark)
    public static class SmallStore extends WriteStore {

        /** Fills the store. */
        @Setup(Level.Trial)
        public void setUp() {
            start(BenchStores.Backend.MARKDOWN, SMALL);
        }
    }

    /** Opens a fresh provider on the directory and gets one key. */
    @Benchmark
    @Measure(value = "markdown cold open of the store + one get vs listing, reading and YAML-parsing the files raw",
            target = 0.8)
    public Optional<MemoryEntry> coldOpen_ours(Cold cold) {
        try (MarkdownMemoryProvider provider = BenchStores.openMarkdown(cold.root(), true)) {
            return provider.get(cold.probe(), Scope.PROJECT);
        }
    }

    /** Lists the directory, reads every memory file, YAML-parses its front-matter and keeps each key's head. */
    @Benchmark
    public RawMemory coldOpen_baseline(Cold cold) throws IOException {
        Map<String, RawMemory> byKey = new HashMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(cold.files(), "mem_*.md")) {
            for (Path file : files) {
                RawMemory memory = RawMemory.parse(Files.readAllBytes(file));
                byKey.merge(memory.key(), memory, (a, b) -> a.version() >= b.version() ? a : b);
            }
        }
        return byKey.get(cold.probe());
    }

    /** {@code set} of a new key into the store of {@code entries} memories. */
    @Benchmark
    @Measure(value = "markdown set into a store of `entries` memories vs into one of 100 (no O(n) work per write)",
            target = 1 / 1.5)
    public MemoryEntry setScaling_ours(LargeStore store) {
        return store.writeNext();
    }

    /** The same {@code set} into the store of {@value #SMALL} memories. */
    @Benchmark
    public MemoryEntry setScaling_baseline(SmallStore store) {
        return store.writeNext();
    }

    /**
     * A memory file read the plain way: its front-matter fields and its body.
     *
     * @param key     the {@code key} field
     * @param version the {@code version} field
     * @param fields  every front-matter field
     * @param body    the text after the front-matter
     */
    public record RawMemory(String key, long version, Map<String, Object> fields, String body) {

        private static final String DELIMITER = "---\n";

        /** Splits the file at its {@code ---} lines and parses the front-matter with Jackson YAML. */
        static RawMemory parse(byte[] bytes) throws IOException {
            String text = new String(bytes, StandardCharsets.UTF_8);
            if (!text.startsWith(DELIMITER)) {
                throw new IOException("no front-matter");
            }
            int close = text.indexOf("\n" + DELIMITER, DELIMITER.length() - 1);
            if (close < 0) {
                throw new IOException("unclosed front-matter");
            }
            Map<String, Object> fields = YAML.readValue(text.substring(DELIMITER.length(), close + 1), FIELDS);
            String body = text.substring(close + 1 + DELIMITER.length());
            return new RawMemory((String) fields.get("key"), ((Number) fields.get("version")).longValue(), fields,
                    body);
        }
    }
}
