package dev.forge.memory.benchmarks.hybrid;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.benchmarks.BenchFiles;
import dev.forge.memory.benchmarks.Measure;
import dev.forge.memory.benchmarks.sqlite.SqliteData;
import dev.forge.memory.benchmarks.vector.WordNetSentences;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import dev.forge.memory.support.EmbeddingModels;
import dev.forge.memory.support.SearchText;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * An import of {@code memories} memories (JSON Lines, WordNet sentences as values) into a fresh hybrid store (sqlite
 * storage with {@code synchronous: normal}, a vector search child with the local {@code bge-small} model) beside the
 * same model embedding the same texts (what the vector child embeds of each entry) alone, in the importer's batches of
 * 1,000. Both hold the model loaded for the whole trial, so neither pays for loading it; the gap is what the import
 * does besides embedding: parsing, checking, the sqlite and Lucene writes and commits.
 *
 * <p>Single shots: one import of a few thousand memories runs for seconds, and the JIT has compiled its loops in the
 * warm-up shot.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
public class HybridImportBench {

    static final String PROJECT = SqliteData.PROJECT;
    static final String MODEL = "bge-small";
    /** The importer's default batch: keys per {@code restoreAll}. */
    static final int BATCH = 1000;
    /** When every entry was written: the time {@link SqliteData#writeExport} gives them. */
    private static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");

    /** The entries imported: key {@code memory/<i>}, a WordNet sentence as value, two tags. */
    static List<MemoryEntry> entries(int memories) {
        List<String> texts = WordNetSentences.load(0, memories).corpus();
        List<MemoryEntry> entries = new ArrayList<>(memories);
        for (int i = 0; i < memories; i++) {
            entries.add(new MemoryEntry(String.format("memory/%06d", i), texts.get(i), Scope.PROJECT,
                    List.of("bench", "group-" + (i % 16)), Map.of("n", (long) i), CREATED, CREATED, 1));
        }
        return entries;
    }

    /** Opens the local model with its default settings, and loads it (an embedding loads a local model). */
    static EmbeddingModel loadedModel() {
        EmbeddingModel model = EmbeddingModels.load().open(MODEL, ProviderConfig.of(Map.of(), "benchmarks", "embedding"));
        model.embed(List.of("warm up"));
        return model;
    }

    /** The trial's data: the entries, written once as a forge-memory JSON Lines export; the model held loaded. */
    @State(org.openjdk.jmh.annotations.Scope.Benchmark)
    public abstract static class Data {

        /** Memories imported per shot. */
        @Param("3000")
        public int memories;

        Path directory;
        List<MemoryEntry> entries;
        EmbeddingModel model;

        void load() {
            directory = BenchFiles.createTempDirectory("forge-bench-hybrid-import");
            entries = entries(memories);
            model = loadedModel();
        }

        /** Closes the model and deletes the files. */
        @TearDown(Level.Trial)
        public void close() {
            model.close();
            BenchFiles.deleteTree(directory);
        }
    }

    /** The export file, and a fresh hybrid store each shot. */
    public static class Ours extends Data {
        Path input;
        Path store;
        MemoryProvider provider;
        Importer importer;

        /** Writes the export file. */
        @Setup(Level.Trial)
        public void setUp() {
            load();
            input = directory.resolve("memories.jsonl");
            SqliteData.writeExport(input, entries.stream()
                    .map(e -> new SqliteData.Item(e.key(), e.value(), e.tags(), Map.<String, Object>copyOf(e.metadata()))).toList());
            importer = Importer.builder().build();
        }

        /** Opens a hybrid router on an empty store. */
        @Setup(Level.Iteration)
        public void open() {
            if (store != null) {
                BenchFiles.deleteTree(store);
            }
            store = directory.resolve("store");
            Map<String, Object> config = Map.of(
                    "storage", Map.of("provider", "sqlite", "synchronous", "normal"),
                    "search", Map.of("provider", "vector", "embedding", Map.of("model", MODEL)));
            ProviderContext context = ProviderContext.builder().projectId(PROJECT).sessionId("bench-session")
                    .baseDirectory(store).forgeHome(store.resolve("forge-home")).registry(ProviderRegistry.load())
                    .config(ProviderConfig.of(config, "bench", "memory.config")).build();
            provider = context.open("hybrid", context.config());
        }

        /** Closes the router. */
        @TearDown(Level.Iteration)
        public void closeStore() {
            provider.close();
        }
    }

    /** The texts the vector child embeds of the same entries. */
    public static class Baseline extends Data {
        List<String> texts;

        /** Loads the model and makes the texts. */
        @Setup(Level.Trial)
        public void setUp() {
            load();
            texts = entries.stream().map(SearchText.DEFAULT::text).toList();
        }
    }

    /** Ours: imports the export into the fresh hybrid store (sqlite + vector, bge-small). */
    @Benchmark
    @Measure(value = "hybrid import (JSON Lines into sqlite + vector, bge-small) vs the same model embedding the same "
            + "texts alone, in the same batches", target = 0.8)
    public ImportResult import_ours(Ours state) {
        ImportResult result = state.importer.importFile(state.input, state.provider);
        if (result.created() != state.memories) {
            throw new IllegalStateException("imported " + result.created() + " of " + state.memories + " memories");
        }
        return result;
    }

    /** Baseline: the model embeds the same texts, {@value #BATCH} per call. */
    @Benchmark
    public int import_baseline(Baseline state) {
        int vectors = 0;
        for (int from = 0; from < state.texts.size(); from += BATCH) {
            vectors += state.model.embed(state.texts.subList(from, Math.min(state.texts.size(), from + BATCH))).size();
        }
        return vectors;
    }
}
