package dev.forge.memory.benchmarks.postgres;

import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.benchmarks.BenchFiles;
import dev.forge.memory.benchmarks.Measure;
import dev.forge.memory.benchmarks.sqlite.SqliteData;
import dev.forge.memory.postgres.PostgresConfig;
import dev.forge.memory.postgres.PostgresMemoryProvider;
import dev.forge.memory.postgres.testserver.LocalPostgres;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
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
 * The postgres provider beside raw JDBC on one PostgreSQL server: {@code PG_URL} ({@code postgresql://host:port/db};
 * {@code PG_USER}, {@code PG_PASSWORD}) when set, else one the fork starts from the machine's binaries
 * ({@link #target()}). Each side has a schema of its own holding
 * the same entries (the sqlite bench's data set, {@link SqliteData}), made with the provider's tables; the baseline
 * issues the statements the provider issues, in the same transactions, on one connection with its statements kept
 * prepared.
 */
@Fork(1)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class PostgresBench {

    private static final String COLUMNS = "e.id, e.key, e.scope, e.value, e.tags, e.metadata, e.created_at, e.updated_at, e.version";
    private static final String NAMESPACE = "e.project = ? AND e.session = '' AND e.scope = 'project'";

    /** A row as the baseline reads it: every column, the JSON columns left as text. */
    public record Row(long id, String key, String value, String tags, String metadata, long version) {
    }

    /** Where the bench connects: the provider's {@code url} setting and the login. */
    record Target(String url, String user, String password) {
    }

    /** No server for the bench: the message is one sentence, and JMH prints no stack trace under it. */
    static final class NoServer extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NoServer(String message) {
            super(message, null, false, false);
        }
    }

    private static Target target;

    /**
     * The server the bench runs on: {@code PG_URL} (with {@code PG_USER}, {@code PG_PASSWORD}) as given when set, else
     * one this fork starts from the machine's PostgreSQL binaries ({@link LocalPostgres}, as the provider's tests do),
     * stopped when the fork exits.
     */
    static synchronized Target target() {
        if (target == null) {
            String url = System.getenv("PG_URL");
            if (url != null && !url.isBlank()) {
                target = new Target(url.strip(), System.getenv("PG_USER"), System.getenv("PG_PASSWORD"));
            } else {
                try {
                    LocalPostgres.Server server = LocalPostgres.startFromBinaries();
                    target = new Target(server.url(server.database()), server.user(), server.password());
                } catch (LocalPostgres.Unavailable e) {
                    throw new NoServer("PostgresBench has no PostgreSQL server: PG_URL is not set and " + e.getMessage());
                }
            }
        }
        return target;
    }

    static PostgresMemoryProvider openProvider(Path dir, String schema) {
        ProviderContext context = ProviderContext.builder().projectId(SqliteData.PROJECT).sessionId(SqliteData.SESSION)
                .baseDirectory(dir).forgeHome(dir.resolve("forge-home")).build();
        Target server = target();
        return PostgresMemoryProvider.open(context, new PostgresConfig(server.url(), server.user(), server.password(),
                schema, 4, null, null, null, null));
    }

    static Connection connect(String schema) throws SQLException {
        Target server = target();
        String url = server.url().replaceFirst("^(jdbc:)?postgres(ql)?://", "jdbc:postgresql://");
        java.util.Properties properties = new java.util.Properties();
        if (server.user() != null) {
            properties.setProperty("user", server.user());
        }
        if (server.password() != null) {
            properties.setProperty("password", server.password());
        }
        properties.setProperty("currentSchema", schema);
        return DriverManager.getConnection(url, properties);
    }

    /** A fresh schema {@code schema} with the provider's tables, filled with {@code items} and analyzed (not timed). */
    static void prepare(Path dir, String schema, List<SqliteData.Item> items) throws SQLException {
        try (Connection connection = connect("public"); Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
        openProvider(dir, schema).close();
        if (!items.isEmpty()) {
            try (Connection connection = connect(schema)) {
                insertAll(connection, items);
                // A running server's autovacuum analyzes a table within a minute of such a fill; without statistics the
                // planner ties the (namespace, key) index with (namespace, updated_at) and may scan the whole namespace.
                try (Statement statement = connection.createStatement()) {
                    statement.execute("ANALYZE entries, tags, versions");
                }
            }
        }
    }

    /** The rows the provider writes for new keys (entry, tags, version 1), in one transaction. */
    static void insertAll(Connection connection, List<SqliteData.Item> items) throws SQLException {
        connection.setAutoCommit(false);
        try (PreparedStatement entry = connection.prepareStatement("INSERT INTO entries (project, session, scope, key, value,"
                + " tags, metadata, created_at, updated_at, version, document) VALUES (?, '', 'project', ?, ?, ?, ?, ?, ?, 1,"
                + " to_tsvector('english'::regconfig, ?)) RETURNING id");
             PreparedStatement tag = connection.prepareStatement("INSERT INTO tags (tag, entry_id) VALUES (?, ?)");
             PreparedStatement version = connection.prepareStatement(INSERT_VERSION)) {
            long now = System.currentTimeMillis();
            for (SqliteData.Item item : items) {
                String tags = SqliteData.json(item.tags());
                String metadata = SqliteData.json(item.metadata());
                entry.setString(1, SqliteData.PROJECT);
                entry.setString(2, item.key());
                entry.setBytes(3, item.value().getBytes(StandardCharsets.UTF_8));
                entry.setString(4, tags);
                entry.setString(5, metadata);
                entry.setLong(6, now);
                entry.setLong(7, now);
                entry.setString(8, document(item));
                long id;
                try (ResultSet rows = entry.executeQuery()) {
                    rows.next();
                    id = rows.getLong(1);
                }
                for (String t : item.tags()) {
                    tag.setString(1, t);
                    tag.setLong(2, id);
                    tag.addBatch();
                }
                bindVersion(version, item, 1, tags, metadata, now, now);
                version.addBatch();
            }
            tag.executeBatch();
            version.executeBatch();
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private static final String INSERT_VERSION = "INSERT INTO versions (project, session, scope, key, version, value, tags,"
            + " metadata, created_at, updated_at) VALUES (?, '', 'project', ?, ?, ?, ?, ?, ?, ?)";

    private static void bindVersion(PreparedStatement insert, SqliteData.Item item, long version, String tags,
            String metadata, long createdAt, long updatedAt) throws SQLException {
        insert.setString(1, SqliteData.PROJECT);
        insert.setString(2, item.key());
        insert.setLong(3, version);
        insert.setBytes(4, item.value().getBytes(StandardCharsets.UTF_8));
        insert.setString(5, tags);
        insert.setString(6, metadata);
        insert.setLong(7, createdAt);
        insert.setLong(8, updatedAt);
    }

    /** The text the provider indexes with the default search fields: key, tags, value. */
    private static String document(SqliteData.Item item) {
        return item.key() + "\n" + String.join(" ", item.tags()) + "\n" + item.value();
    }

    /** Two schemas of {@code entries} entries: the provider's and the baseline's, with the baseline's statements. */
    @State(org.openjdk.jmh.annotations.Scope.Benchmark)
    public static class Stores {

        /** Entries in each store. */
        @Param("10000")
        public int entries;

        Path dir;
        PostgresMemoryProvider ours;
        Connection baseline;
        PreparedStatement get;
        PreparedStatement lock;
        PreparedStatement current;
        PreparedStatement update;
        PreparedStatement deleteTags;
        PreparedStatement insertTag;
        PreparedStatement insertVersion;
        PreparedStatement query;
        PreparedStatement search;
        String[] keys;
        int nextOurs;
        int nextBaseline;
        long rewrites;

        /** Fills both schemas and opens both sides. */
        @Setup(Level.Trial)
        public void open() throws SQLException {
            dir = BenchFiles.createTempDirectory("forge-bench-postgres");
            List<SqliteData.Item> items = SqliteData.items(entries);
            prepare(dir, "bench_ours", items);
            prepare(dir, "bench_baseline", items);
            ours = openProvider(dir, "bench_ours");
            baseline = connect("bench_baseline");
            get = baseline.prepareStatement("SELECT " + COLUMNS + " FROM entries e WHERE " + NAMESPACE + " AND e.key = ?");
            lock = baseline.prepareStatement("SELECT pg_advisory_xact_lock_shared(1), pg_advisory_xact_lock(hashtextextended(?, 0))");
            current = baseline.prepareStatement("SELECT e.id, e.created_at, e.version, (SELECT max(v.id) FROM versions v"
                    + " WHERE v.project = e.project AND v.session = e.session AND v.scope = e.scope AND v.key = e.key)"
                    + " FROM entries e WHERE " + NAMESPACE + " AND e.key = ?");
            update = baseline.prepareStatement("UPDATE entries SET value = ?, tags = ?, metadata = ?, created_at = ?,"
                    + " updated_at = ?, version = ?, document = to_tsvector('english'::regconfig, ?) WHERE id = ?");
            deleteTags = baseline.prepareStatement("DELETE FROM tags WHERE entry_id = ?");
            insertTag = baseline.prepareStatement("INSERT INTO tags (tag, entry_id) VALUES (?, ?)");
            insertVersion = baseline.prepareStatement(INSERT_VERSION);
            query = baseline.prepareStatement("SELECT " + COLUMNS + " FROM entries e WHERE " + NAMESPACE
                    + " AND e.key >= ? AND e.key < ? ORDER BY e.key");
            search = baseline.prepareStatement("SELECT " + COLUMNS + ", ts_rank(e.document, q, 1) AS rank FROM entries e,"
                    + " plainto_tsquery('english'::regconfig, ?) q WHERE e.document @@ q AND (e.scope = 'global'"
                    + " OR (e.project = ? AND (e.scope = 'project' OR e.session = ?))) ORDER BY rank DESC, e.key LIMIT "
                    + SearchRequest.DEFAULT_LIMIT);
            keys = new String[entries];
            for (int i = 0; i < entries; i++) {
                keys[i] = SqliteData.key(i);
            }
        }

        /** Closes both sides and drops the schemas. */
        @TearDown(Level.Trial)
        public void close() throws SQLException {
            ours.close();
            try (Statement statement = baseline.createStatement()) {
                statement.execute("DROP SCHEMA bench_ours CASCADE");
                statement.execute("DROP SCHEMA bench_baseline CASCADE");
            }
            baseline.close();
            BenchFiles.deleteTree(dir);
        }

        int oursIndex() {
            nextOurs = (int) ((nextOurs + 7919L) % entries);
            return nextOurs;
        }

        int baselineIndex() {
            nextBaseline = (int) ((nextBaseline + 7919L) % entries);
            return nextBaseline;
        }
    }

    /** A fresh empty schema on each side for each import, and the export file both import. */
    @State(org.openjdk.jmh.annotations.Scope.Benchmark)
    public static class Imports {

        /** Records in the export file. */
        @Param("10000")
        public int records;

        Path dir;
        Path export;
        PostgresMemoryProvider ours;
        Connection baseline;

        /** Writes the export. */
        @Setup(Level.Trial)
        public void write() {
            dir = BenchFiles.createTempDirectory("forge-bench-postgres-import");
            export = dir.resolve("export.jsonl");
            SqliteData.writeExport(export, SqliteData.items(records));
        }

        /** Empty schemas with the provider's tables (not timed). */
        @Setup(Level.Invocation)
        public void fresh() throws SQLException {
            prepare(dir, "bench_import_ours", List.of());
            prepare(dir, "bench_import_baseline", List.of());
            ours = openProvider(dir, "bench_import_ours");
            baseline = connect("bench_import_baseline");
        }

        /** Closes this invocation's stores. */
        @TearDown(Level.Invocation)
        public void drop() throws SQLException {
            ours.close();
            baseline.close();
        }

        /** Deletes the export. */
        @TearDown(Level.Trial)
        public void delete() {
            BenchFiles.deleteTree(dir);
        }
    }

    /** Ours: {@code set} of an existing key with a new value (locks, update, tags, version row, document). */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Measure(value = "postgres set (update of an existing key) vs raw JDBC, same statements in one transaction", target = 0.8)
    public MemoryEntry set_ours(Stores stores) {
        SqliteData.Item item = SqliteData.item(stores.oursIndex(), ++stores.rewrites);
        return stores.ours.set(item.key(), item.value(), Scope.PROJECT, item.tags(), item.metadata());
    }

    /** Baseline: the provider's write statements for an existing key, in one transaction. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long set_baseline(Stores stores) throws SQLException {
        SqliteData.Item item = SqliteData.item(stores.baselineIndex(), ++stores.rewrites);
        String tags = SqliteData.json(item.tags());
        String metadata = SqliteData.json(item.metadata());
        long now = System.currentTimeMillis();
        Connection connection = stores.baseline;
        connection.setAutoCommit(false);
        try {
            stores.lock.setString(1, item.key());
            stores.lock.executeQuery().close();
            stores.current.setString(1, SqliteData.PROJECT);
            stores.current.setString(2, item.key());
            long id;
            long createdAt;
            long version;
            try (ResultSet rows = stores.current.executeQuery()) {
                rows.next();
                id = rows.getLong(1);
                createdAt = rows.getLong(2);
                version = rows.getLong(3) + 1;
            }
            PreparedStatement update = stores.update;
            update.setBytes(1, item.value().getBytes(StandardCharsets.UTF_8));
            update.setString(2, tags);
            update.setString(3, metadata);
            update.setLong(4, createdAt);
            update.setLong(5, now);
            update.setLong(6, version);
            update.setString(7, document(item));
            update.setLong(8, id);
            update.executeUpdate();
            stores.deleteTags.setLong(1, id);
            stores.deleteTags.executeUpdate();
            for (String tag : item.tags()) {
                stores.insertTag.setString(1, tag);
                stores.insertTag.setLong(2, id);
                stores.insertTag.addBatch();
            }
            stores.insertTag.executeBatch();
            bindVersion(stores.insertVersion, item, version, tags, metadata, createdAt, now);
            stores.insertVersion.executeUpdate();
            connection.commit();
            return version;
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    /** Ours: {@code get} of an existing key. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Measure(value = "postgres get of an existing key vs raw JDBC SELECT by key", target = 0.8)
    public Optional<MemoryEntry> get_ours(Stores stores) {
        return stores.ours.get(stores.keys[stores.oursIndex()], Scope.PROJECT);
    }

    /** Baseline: the provider's SELECT by namespace and key. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public Optional<Row> get_baseline(Stores stores) throws SQLException {
        stores.get.setString(1, SqliteData.PROJECT);
        stores.get.setString(2, stores.keys[stores.baselineIndex()]);
        try (ResultSet rows = stores.get.executeQuery()) {
            return rows.next() ? Optional.of(row(rows)) : Optional.empty();
        }
    }

    /** Ours: the query {@code note/0001*} in PROJECT: 100 entries, in key order. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Measure(value = "postgres prefix query (100 of the entries) vs raw JDBC key-range SELECT", target = 0.8)
    public List<MemoryEntry> query_ours(Stores stores) {
        return stores.ours.query(Query.of(SqliteData.QUERY_PATTERN, Scope.PROJECT));
    }

    /** Baseline: a key-range SELECT, ordered by key. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public List<Row> query_baseline(Stores stores) throws SQLException {
        stores.query.setString(1, SqliteData.PROJECT);
        stores.query.setString(2, SqliteData.QUERY_LOW);
        stores.query.setString(3, SqliteData.QUERY_HIGH);
        List<Row> found = new ArrayList<>();
        try (ResultSet rows = stores.query.executeQuery()) {
            while (rows.next()) {
                found.add(row(rows));
            }
        }
        return found;
    }

    /** Ours: keyword search of every scope for one word in about one value in ten, top 10. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Measure(value = "postgres keyword search (tsvector, ts_rank, top 10) vs raw JDBC @@ with LIMIT", target = 0.8)
    public List<Hit> search_ours(Stores stores) {
        return stores.ours.search(SearchRequest.keyword(SqliteData.SEARCH_TERM));
    }

    /** Baseline: the match over the visible namespaces, ranked by {@code ts_rank}, {@code LIMIT 10}. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public List<Row> search_baseline(Stores stores) throws SQLException {
        stores.search.setString(1, SqliteData.SEARCH_TERM);
        stores.search.setString(2, SqliteData.PROJECT);
        stores.search.setString(3, SqliteData.SESSION);
        List<Row> found = new ArrayList<>(SearchRequest.DEFAULT_LIMIT);
        try (ResultSet rows = stores.search.executeQuery()) {
            while (rows.next()) {
                found.add(row(rows));
            }
        }
        return found;
    }

    /** Ours: {@code Importer} of a JSON Lines export into an empty schema (checks, then batched restores). */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 2)
    @Measurement(iterations = 5)
    @Measure(value = "postgres bulk import of a JSONL export vs raw batched INSERTs in one transaction", target = 0.7)
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
        insertAll(imports.baseline, items);
        return items.size();
    }

    static Row row(ResultSet rows) throws SQLException {
        return new Row(rows.getLong("id"), rows.getString("key"), new String(rows.getBytes("value"), StandardCharsets.UTF_8),
                rows.getString("tags"), rows.getString("metadata"), rows.getLong("version"));
    }
}
