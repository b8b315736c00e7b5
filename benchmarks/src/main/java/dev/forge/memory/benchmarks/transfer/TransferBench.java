package dev.forge.memory.benchmarks.transfer;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.benchmarks.Measure;
import dev.forge.memory.benchmarks.transfer.RawTransfer.Row;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import dev.forge.memory.sqlite.SqliteMemoryProviderFactory;
import dev.forge.memory.transfer.ExportResult;
import dev.forge.memory.transfer.Exporter;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import dev.forge.memory.transfer.TransferFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Export and import of {@code records} entries of a sqlite store in a 256 MB heap, as single shots: forge-memory's
 * {@link Exporter} / {@link Importer} (JSON Lines) beside raw Jackson streaming over plain JDBC writing and reading the
 * same records, fields and tables ({@link RawTransfer}). Both sides run with {@code synchronous: normal} (WAL): the
 * provider's default {@code full} would make the import one fsync per key, a cost of the disk rather than of the code.
 *
 * <p>Every benchmark method runs in its own forked JVM, so each side's peak RSS ({@link PeakRss}) is its own; the peak
 * is reset after each iteration's untimed setup and read after it, the largest of the measurement iterations kept.
 *
 * <p>One shot, no warm-up: at full size each shot runs for minutes, and the JIT has compiled the loop within its first
 * seconds.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx256m")
@Warmup(iterations = 0)
@Measurement(iterations = 1)
public class TransferBench {

    static final String PROJECT = "bench-project";
    static final String SESSION = "bench-session";
    static final String SYNCHRONOUS = "normal";
    /** One entry in this many has a second version (so one earlier version in its history). */
    static final int HISTORY_EVERY = 10;

    private static final String TEXT = "The agent decided to keep the build offline, to cache the dependency tree and to"
            + " run the slow integration suite only on the merge queue; reviewers agreed after the flaky test was fixed.";

    // ------------------------------------------------------------------ the data

    /** Entry {@code i} of the benchmark data (PROJECT scope), and its earlier version when it has one. */
    static Row row(int i, boolean earlier) {
        String key = String.format("bench:record-%07d", i);
        long created = 1_767_225_600_000L + i;
        long version = earlier || i % HISTORY_EVERY != 0 ? 1 : 2;
        String group = "group-" + (i % 16);
        String value = (earlier ? "Earlier: " : "") + "Record " + i + ". " + TEXT;
        return new Row(key, "project", value, List.of("bench", group), "[\"bench\",\"" + group + "\"]",
                "{\"n\":" + i + ",\"source\":\"bench\"}", created, created + 1000 * version, version);
    }

    static List<Row> history(int i) {
        return i % HISTORY_EVERY == 0 ? List.of(row(i, true)) : List.of();
    }

    /** A provider context on {@code directory} with the benchmark's sqlite settings. */
    static ProviderContext context(Path directory) {
        return ProviderContext.builder()
                .projectId(PROJECT)
                .sessionId(SESSION)
                .baseDirectory(directory)
                .forgeHome(directory.resolve("forge-home"))
                .registry(ProviderRegistry.of())
                .config(ProviderConfig.of(Map.of("synchronous", SYNCHRONOUS), "benchmark", "memory.config"))
                .build();
    }

    static MemoryProvider open(Path directory) {
        return new SqliteMemoryProviderFactory().open(context(directory));
    }

    /** The store's database file (the provider's default path). */
    static Path database(Path directory) {
        return directory.resolve(".forge/memory.db");
    }

    /** Makes an empty store in {@code directory}: the provider creates its schema (tables, indexes, FTS5 triggers). */
    static Path emptyStore(Path directory) {
        open(directory).close();
        return database(directory);
    }

    /** Inserts the benchmark's {@code records} entries with the raw inserter (untimed setup). */
    static void insertRecords(Connection connection, int records) throws SQLException {
        try (RawTransfer.Inserter inserter = new RawTransfer.Inserter(connection, PROJECT, SESSION)) {
            for (int i = 0; i < records; i++) {
                inserter.add(row(i, false), history(i));
            }
        }
    }

    static void delete(Path directory) {
        if (directory == null || !Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + directory, e);
        }
    }

    static Path tempDirectory() {
        try {
            return Files.createTempDirectory("forge-bench-transfer");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------ states

    /** What every side shares: a temp directory, the records param and the peak RSS of the measured iterations. */
    @State(Scope.Benchmark)
    public abstract static class Side {
        @Param("1000000")
        public int records;

        Path directory;
        double peakMb;

        /** Resets the peak RSS: call last in an iteration's setup. */
        void startIteration() {
            PeakRss.reset();
        }

        @TearDown(Level.Iteration)
        public void endIteration(IterationParams iteration) {
            if (iteration.getType() == IterationType.MEASUREMENT) {
                peakMb = Math.max(peakMb, PeakRss.peakMb().orElse(0.0));
            }
        }

        /** Leaves the peak for the pair; see {@link PeakRss#share}. */
        void share(String measure, BenchmarkParams benchmark) {
            if (peakMb > 0) {
                PeakRss.share(measure, benchmark.getBenchmark(), peakMb, Map.of("records", records, "heap", "256m"));
            }
        }
    }

    /** A store holding {@code records} entries, filled once per trial with the raw inserter. */
    public abstract static class FilledStore extends Side {
        Path file;
        Path output;

        void fill() throws SQLException {
            directory = tempDirectory();
            file = emptyStore(directory);
            output = directory.resolve("export.jsonl");
            try (Connection connection = RawTransfer.connect(file, SYNCHRONOUS)) {
                insertRecords(connection, records);
                RawTransfer.execute(connection, "PRAGMA wal_checkpoint(TRUNCATE)");
            }
        }
    }

    /** The filled store opened by the sqlite provider. */
    public static class ExportOurs extends FilledStore {
        MemoryProvider provider;
        Exporter exporter;

        @Setup(Level.Trial)
        public void setUp() throws SQLException {
            fill();
            provider = open(directory);
            exporter = Exporter.builder().format(TransferFormat.JSONL).project(PROJECT).build();
        }

        @Setup(Level.Iteration)
        public void iteration() {
            startIteration();
        }

        @TearDown(Level.Trial)
        public void tearDown(BenchmarkParams benchmark) {
            provider.close();
            share("transfer.export.peak_rss", benchmark);
            delete(directory);
        }
    }

    /** The filled store opened by a plain JDBC connection. */
    public static class ExportBaseline extends FilledStore {
        Connection connection;

        @Setup(Level.Trial)
        public void setUp() throws SQLException {
            fill();
            connection = RawTransfer.connect(file, SYNCHRONOUS);
        }

        @Setup(Level.Iteration)
        public void iteration() {
            startIteration();
        }

        @TearDown(Level.Trial)
        public void tearDown(BenchmarkParams benchmark) throws SQLException {
            connection.close();
            share("transfer.export.peak_rss", benchmark);
            delete(directory);
        }
    }

    /** A JSON Lines export of {@code records} entries, written once per trial; a fresh empty store per iteration. */
    public abstract static class ExportFile extends Side {
        Path input;
        Path store;

        void writeFile() throws IOException, SQLException {
            directory = tempDirectory();
            // Written by the raw exporter from a filled store: byte for byte the format, and the same records.
            Path source = directory.resolve("source");
            Path file = emptyStore(source);
            try (Connection connection = RawTransfer.connect(file, SYNCHRONOUS)) {
                insertRecords(connection, records);
                input = directory.resolve("input.jsonl");
                RawTransfer.export(connection, PROJECT, SESSION, input);
            }
            delete(source);
        }

        Path freshStore() {
            delete(store);
            store = directory.resolve("store");
            return store;
        }
    }

    /** The file, and the sqlite provider on a fresh store each iteration. */
    public static class ImportOurs extends ExportFile {
        MemoryProvider provider;
        Importer importer;

        @Setup(Level.Trial)
        public void setUp() throws IOException, SQLException {
            writeFile();
            importer = Importer.builder().build();
        }

        @Setup(Level.Iteration)
        public void iteration() {
            provider = open(freshStore());
            startIteration();
        }

        @TearDown(Level.Iteration)
        public void closeStore() {
            provider.close();
        }

        @TearDown(Level.Trial)
        public void tearDown(BenchmarkParams benchmark) {
            share("transfer.import.peak_rss", benchmark);
            delete(directory);
        }
    }

    /** The file, and a JDBC connection on a fresh store (schema made by the provider) each iteration. */
    public static class ImportBaseline extends ExportFile {
        Connection connection;

        @Setup(Level.Trial)
        public void setUp() throws IOException, SQLException {
            writeFile();
        }

        @Setup(Level.Iteration)
        public void iteration() throws SQLException {
            connection = RawTransfer.connect(emptyStore(freshStore()), SYNCHRONOUS);
            startIteration();
        }

        @TearDown(Level.Iteration)
        public void closeStore() throws SQLException {
            connection.close();
        }

        @TearDown(Level.Trial)
        public void tearDown(BenchmarkParams benchmark) {
            share("transfer.import.peak_rss", benchmark);
            delete(directory);
        }
    }

    // ------------------------------------------------------------------ the measures

    /** Exports the store to JSON Lines with forge-memory's exporter. */
    @Benchmark
    @Measure(value = "transfer export (JSON Lines, sqlite, 256 MB heap) vs raw Jackson JsonGenerator over a JDBC cursor",
            target = 0.5)
    public ExportResult export_ours(ExportOurs state) {
        return state.exporter.exportFile(state.provider, state.output);
    }

    /** Writes the same records and fields from the same file with a JDBC cursor and a JsonGenerator. */
    @Benchmark
    public long export_baseline(ExportBaseline state) throws IOException, SQLException {
        return RawTransfer.export(state.connection, PROJECT, SESSION, state.output);
    }

    /** Imports the JSON Lines file into a fresh store with forge-memory's importer. */
    @Benchmark
    @Measure(value = "transfer import (JSON Lines into sqlite, 256 MB heap) vs raw Jackson JsonParser and batched JDBC insert",
            target = 0.5)
    public ImportResult import_ours(ImportOurs state) {
        return state.importer.importFile(state.input, state.provider);
    }

    /** Parses the same file with a JsonParser and inserts the same rows with batched JDBC inserts. */
    @Benchmark
    public long import_baseline(ImportBaseline state) throws IOException, SQLException {
        try (RawTransfer.Inserter inserter = new RawTransfer.Inserter(state.connection, PROJECT, SESSION)) {
            return RawTransfer.importFile(state.input, inserter);
        }
    }
}
