package dev.forge.memory.benchmarks.sqlite;

import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.benchmarks.BenchFiles;
import dev.forge.memory.benchmarks.Measure;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.sqlite.SqliteConfig;
import dev.forge.memory.sqlite.SqliteMemoryProvider;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The sqlite provider beside raw sqlite-jdbc. Each side has its own database file holding the same entries (written
 * by {@link SqliteData#insertAll}, not timed), made with the provider's schema, and opened with the provider's pragmas
 * ({@link RawSqlite}). The baseline issues the statements the provider issues, in the same transactions; it keeps its
 * prepared statements open, as a reasonably written raw loop would.
 */
@Fork(1)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class SqliteBench {

    private static final String GET = "SELECT e.id, e.key, e.scope, e.value, e.tags, e.metadata, e.created_at,"
            + " e.updated_at, e.version FROM entries e WHERE e.project = ? AND e.session = ? AND e.scope = ? AND e.key = ?";
    private static final String CURRENT = "SELECT v.last_version, v.revision, e.id, e.created_at, e.updated_at, e.version"
            + " FROM (SELECT max(version) AS last_version, max(id) AS revision FROM versions"
            + " WHERE project = ? AND session = ? AND scope = ? AND key = ?) v"
            + " LEFT JOIN entries e ON e.project = ? AND e.session = ? AND e.scope = ? AND e.key = ?";
    private static final String QUERY = "SELECT e.id, e.key, e.scope, e.value, e.tags, e.metadata, e.created_at,"
            + " e.updated_at, e.version, 1 AS scope_rank FROM entries e"
            + " WHERE e.project = ? AND e.session = ? AND e.scope = ? AND e.key >= ? AND e.key < ? ORDER BY e.key";
    private static final String SEARCH = "SELECT e.id, e.key, e.scope, e.value, e.tags, e.metadata, e.created_at,"
            + " e.updated_at, e.version, bm25(entries_fts) AS bm25_rank"
            + " FROM entries_fts CROSS JOIN entries e ON e.id = entries_fts.rowid WHERE entries_fts MATCH ?"
            + " AND ((e.project = ? AND e.session = ? AND e.scope = ?) OR (e.project = ? AND e.session = ? AND e.scope = ?)"
            + " OR (e.project = ? AND e.session = ? AND e.scope = ?)) ORDER BY bm25(entries_fts) LIMIT " + SearchRequest.DEFAULT_LIMIT;

    /** A row as the baseline reads it: every column, the JSON columns left as text. */
    public record Row(long id, String key, String scope, String value, String tags, String metadata, long createdAt,
            long updatedAt, long version) {
    }

    /** Opens the provider on {@code file} (creating it with the provider's schema). */
    static SqliteMemoryProvider openProvider(Path dir, Path file) {
        ProviderContext context = ProviderContext.builder().projectId(SqliteData.PROJECT).sessionId(SqliteData.SESSION)
                .baseDirectory(dir).forgeHome(dir.resolve("forge-home")).build();
        // GLOBAL in the same file, as the raw baseline reads it.
        return SqliteMemoryProvider.open(context, new SqliteConfig(file.toString(), file.toString(), null, null));
    }

    /** Makes an empty database with the provider's schema at {@code file}, filled with {@code items} when not empty. */
    static void prepare(Path dir, Path file, List<SqliteData.Item> items) throws SQLException {
        openProvider(dir, file).close();
        if (!items.isEmpty()) {
            try (Connection connection = RawSqlite.open(file, false)) {
                SqliteData.insertAll(connection, items);
            }
        }
    }

    /** Two stores of {@code entries} entries: the provider's and the baseline's, with the baseline's statements. */
    @State(org.openjdk.jmh.annotations.Scope.Benchmark)
    public static class Stores {

        /** Entries in each store. */
        @Param("10000")
        public int entries;

        Path dir;
        SqliteMemoryProvider ours;
        Connection writer;
        Connection reader;
        PreparedStatement get;
        PreparedStatement current;
        PreparedStatement update;
        PreparedStatement deleteTags;
        PreparedStatement insertTag;
        PreparedStatement insertVersion;
        PreparedStatement query;
        PreparedStatement search;
        Statement transaction;
        String[] keys;
        int nextOurs;
        int nextBaseline;
        long rewrites;

        /** Fills both files and opens both sides. */
        @Setup(Level.Trial)
        public void open() throws SQLException {
            dir = BenchFiles.createTempDirectory("forge-bench-sqlite");
            List<SqliteData.Item> items = SqliteData.items(entries);
            Path oursFile = dir.resolve("ours.db");
            Path baselineFile = dir.resolve("baseline.db");
            prepare(dir, oursFile, items);
            prepare(dir, baselineFile, items);
            ours = openProvider(dir, oursFile);
            writer = RawSqlite.open(baselineFile, false);
            reader = RawSqlite.open(baselineFile, true);
            transaction = writer.createStatement();
            current = writer.prepareStatement(CURRENT);
            update = writer.prepareStatement("UPDATE entries SET value = ?, tags = ?, metadata = ?,"
                    + " created_at = ?, updated_at = ?, version = ? WHERE id = ?");
            deleteTags = writer.prepareStatement("DELETE FROM tags WHERE entry_id = ?");
            insertTag = writer.prepareStatement("INSERT INTO tags (tag, entry_id) VALUES (?, ?)");
            insertVersion = writer.prepareStatement(SqliteData.INSERT_VERSION);
            get = reader.prepareStatement(GET);
            query = reader.prepareStatement(QUERY);
            search = reader.prepareStatement(SEARCH);
            keys = new String[entries];
            for (int i = 0; i < entries; i++) {
                keys[i] = SqliteData.key(i);
            }
        }

        /** Closes both sides and deletes the files. */
        @TearDown(Level.Trial)
        public void close() throws SQLException {
            ours.close();
            reader.close();
            writer.close();
            BenchFiles.deleteTree(dir);
        }

        /** The next key of ours: a stride through the keys, so that reads do not stay on one page. */
        int oursIndex() {
            nextOurs = (int) ((nextOurs + 7919L) % entries);
            return nextOurs;
        }

        /** The next key of the baseline: the same sequence as {@link #oursIndex}. */
        int baselineIndex() {
            nextBaseline = (int) ((nextBaseline + 7919L) % entries);
            return nextBaseline;
        }
    }

    /** A fresh empty store on each side for each import, and the export file both import. */
    @State(org.openjdk.jmh.annotations.Scope.Benchmark)
    public static class Imports {

        /** Records in the export file. */
        @Param("10000")
        public int records;

        Path dir;
        Path export;
        Path run;
        SqliteMemoryProvider ours;
        Connection baseline;

        /** Writes the export. */
        @Setup(Level.Trial)
        public void write() {
            dir = BenchFiles.createTempDirectory("forge-bench-sqlite-import");
            export = dir.resolve("export.jsonl");
            SqliteData.writeExport(export, SqliteData.items(records));
        }

        /** Empty stores with the provider's schema, opened as each side opens them (not timed). */
        @Setup(Level.Invocation)
        public void fresh() throws SQLException, IOException {
            run = Files.createTempDirectory(dir, "run");
            ours = openProvider(run, run.resolve("ours.db"));
            Path baselineFile = run.resolve("baseline.db");
            prepare(run, baselineFile, List.of());
            baseline = RawSqlite.open(baselineFile, false);
        }

        /** Closes and deletes this invocation's stores. */
        @TearDown(Level.Invocation)
        public void drop() throws SQLException {
            ours.close();
            baseline.close();
            BenchFiles.deleteTree(run);
        }

        /** Deletes the export. */
        @TearDown(Level.Trial)
        public void delete() {
            BenchFiles.deleteTree(dir);
        }
    }

    // ------------------------------------------------------------------ set

    /** Ours: {@code set} of an existing key with a new value (upsert, tags, version row, FTS through triggers). */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Measure(value = "sqlite set (update of an existing key) vs raw JDBC, same statements in one transaction", target = 0.8)
    public MemoryEntry set_ours(Stores stores) {
        int i = stores.oursIndex();
        SqliteData.Item item = SqliteData.item(i, ++stores.rewrites);
        return stores.ours.set(item.key(), item.value(), Scope.PROJECT, item.tags(), item.metadata());
    }

    /** Baseline: the provider's write statements for an existing key, in one {@code BEGIN IMMEDIATE} transaction. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long set_baseline(Stores stores) throws SQLException {
        int i = stores.baselineIndex();
        SqliteData.Item item = SqliteData.item(i, ++stores.rewrites);
        String tags = SqliteData.json(item.tags());
        String metadata = SqliteData.json(item.metadata());
        long now = System.currentTimeMillis();
        stores.transaction.execute("BEGIN IMMEDIATE");
        boolean committed = false;
        try {
            PreparedStatement current = stores.current;
            current.setString(SqliteData.bindNamespace(current, 1), item.key());
            current.setString(SqliteData.bindNamespace(current, 5), item.key());
            long id;
            long createdAt;
            long version;
            try (ResultSet rows = current.executeQuery()) {
                rows.next();
                id = rows.getLong("id");
                createdAt = rows.getLong("created_at");
                version = rows.getLong("version") + 1;
            }
            PreparedStatement update = stores.update;
            update.setString(1, item.value());
            update.setString(2, tags);
            update.setString(3, metadata);
            update.setLong(4, createdAt);
            update.setLong(5, now);
            update.setLong(6, version);
            update.setLong(7, id);
            update.executeUpdate();
            stores.deleteTags.setLong(1, id);
            stores.deleteTags.executeUpdate();
            for (String tag : item.tags()) {
                stores.insertTag.setString(1, tag);
                stores.insertTag.setLong(2, id);
                stores.insertTag.addBatch();
            }
            stores.insertTag.executeBatch();
            SqliteData.bindVersion(stores.insertVersion, item.key(), version, item.value(), tags, metadata, createdAt, now);
            stores.insertVersion.executeUpdate();
            stores.transaction.execute("COMMIT");
            committed = true;
            return version;
        } finally {
            if (!committed) {
                stores.transaction.execute("ROLLBACK");
            }
        }
    }

    // ------------------------------------------------------------------ get

    /** Ours: {@code get} of an existing key. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Measure(value = "sqlite get of an existing key vs raw JDBC SELECT by key", target = 0.8)
    public Optional<MemoryEntry> get_ours(Stores stores) {
        return stores.ours.get(stores.keys[stores.oursIndex()], Scope.PROJECT);
    }

    /** Baseline: the provider's SELECT by namespace and key on a read connection. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public Optional<Row> get_baseline(Stores stores) throws SQLException {
        PreparedStatement get = stores.get;
        get.setString(SqliteData.bindNamespace(get, 1), stores.keys[stores.baselineIndex()]);
        try (ResultSet rows = get.executeQuery()) {
            return rows.next() ? Optional.of(row(rows)) : Optional.empty();
        }
    }

    // ------------------------------------------------------------------ query

    /** Ours: the query {@code note/0001*} in PROJECT: 100 entries, in key order. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Measure(value = "sqlite prefix query (100 of the entries) vs raw JDBC key-range SELECT", target = 0.8)
    public List<MemoryEntry> query_ours(Stores stores) {
        return stores.ours.query(Query.of(SqliteData.QUERY_PATTERN, Scope.PROJECT));
    }

    /** Baseline: the provider's key-range SELECT, ordered by key. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public List<Row> query_baseline(Stores stores) throws SQLException {
        PreparedStatement query = stores.query;
        query.setString(SqliteData.bindNamespace(query, 1), SqliteData.QUERY_LOW);
        query.setString(5, SqliteData.QUERY_HIGH);
        List<Row> found = new ArrayList<>();
        try (ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                found.add(row(rows));
            }
        }
        return found;
    }

    // ------------------------------------------------------------------ keyword search

    /** Ours: keyword search of every scope for one word in about one value in ten, top 10. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Measure(value = "sqlite keyword search (FTS5, bm25, top 10) vs raw JDBC MATCH", target = 0.8)
    public List<Hit> search_ours(Stores stores) {
        return stores.ours.search(SearchRequest.keyword(SqliteData.SEARCH_TERM));
    }

    /**
     * Baseline: the provider's FTS5 MATCH over the three scopes' namespaces, ranked by bm25, {@code LIMIT 10}: the
     * provider asks SQLite for a cut too ({@code LIMIT} of the limit + 64, for ties), so a raw loop without one would
     * make SQLite sort every match where ours does not.
     */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public List<Row> search_baseline(Stores stores) throws SQLException {
        PreparedStatement search = stores.search;
        search.setString(1, "\"" + SqliteData.SEARCH_TERM + "\"");
        search.setString(2, SqliteData.PROJECT);
        search.setString(3, SqliteData.SESSION);
        search.setString(4, "session");
        SqliteData.bindNamespace(search, 5);
        search.setString(8, "");
        search.setString(9, "");
        search.setString(10, "global");
        List<Row> found = new ArrayList<>(SearchRequest.DEFAULT_LIMIT);
        try (ResultSet rows = search.executeQuery()) {
            while (found.size() < SearchRequest.DEFAULT_LIMIT && rows.next()) {
                found.add(row(rows));
            }
        }
        return found;
    }

    // ------------------------------------------------------------------ bulk import

    /** Ours: {@code Importer} of a JSON Lines export into an empty store (checks, then one restore per key). */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 2)
    @Measurement(iterations = 5)
    @Measure(value = "sqlite bulk import of a JSONL export vs raw batched INSERTs in one transaction", target = 0.7)
    public ImportResult bulk_import_ours(Imports imports) {
        return Importer.builder().build().importFile(imports.export, imports.ours);
    }

    /** Baseline: reads the same file with Jackson and inserts every entry, its tags and version in one transaction. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 2)
    @Measurement(iterations = 5)
    public int bulk_import_baseline(Imports imports) throws IOException, SQLException {
        List<SqliteData.Item> items = SqliteData.readExport(imports.export, imports.records);
        SqliteData.insertAll(imports.baseline, items);
        return items.size();
    }

    static Row row(ResultSet rows) throws SQLException {
        return new Row(rows.getLong("id"), rows.getString("key"), rows.getString("scope"), rows.getString("value"),
                rows.getString("tags"), rows.getString("metadata"), rows.getLong("created_at"), rows.getLong("updated_at"),
                rows.getLong("version"));
    }
}
