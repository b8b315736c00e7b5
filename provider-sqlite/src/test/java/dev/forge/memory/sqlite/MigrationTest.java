package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.sqlite.internal.Migrations;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The schema migrations: from no file, an empty file and every earlier version; newer and foreign files refused. */
class MigrationTest {

    @TempDir
    Path directory;

    private Path file() {
        return Stores.databaseFile(directory);
    }

    private static int userVersion(Path file) throws SQLException {
        try (Connection connection = Stores.jdbc(file); Statement statement = connection.createStatement()) {
            return Migrations.userVersion(statement);
        }
    }

    private static List<String> tables(Path file) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Connection connection = Stores.jdbc(file); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")) {
            while (rows.next()) {
                names.add(rows.getString(1));
            }
        }
        return names;
    }

    /** Builds the database as the code of schema version {@code version} would have left it. */
    private void createAtVersion(int version) throws SQLException, IOException {
        Files.createDirectories(file().getParent());
        try (Connection connection = Stores.jdbc(file())) {
            Migrations.migrate(connection, file(), version);
        }
    }

    @Test
    void a_missing_file_and_its_directory_are_created_private_at_the_current_version() throws Exception {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("k", "v", Scope.PROJECT);
            assertThat(provider.databaseFile()).isEqualTo(file().toRealPath());
        }
        assertThat(userVersion(file())).isEqualTo(Migrations.CURRENT);
        assertThat(tables(file())).contains("entries", "tags", "versions", "edges", "entries_fts");
        if (file().getFileSystem().supportedFileAttributeViews().contains("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file()))).isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file().getParent()))).isEqualTo("rwx------");
        }
    }

    @Test
    void an_empty_file_is_migrated_from_version_0() throws Exception {
        Files.createDirectories(file().getParent());
        Files.createFile(file());
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("note", "hello migrations", Scope.PROJECT);
            assertThat(provider.search(SearchRequest.keyword("migrations"))).hasSize(1);
        }
        assertThat(userVersion(file())).isEqualTo(Migrations.CURRENT);
    }

    static IntStream earlier_versions() {
        return IntStream.range(0, Migrations.CURRENT);
    }

    @ParameterizedTest
    @MethodSource("earlier_versions")
    void every_earlier_version_is_migrated_to_the_current_one(int version) throws Exception {
        createAtVersion(version);
        assertThat(userVersion(file())).isEqualTo(version);
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            MemoryEntry stored = provider.set("k", "searchable text", Scope.PROJECT, List.of("t"), Map.of("n", 1));
            assertThat(provider.query(Query.of("tag:t"))).containsExactly(stored);
            assertThat(provider.search(SearchRequest.keyword("searchable"))).extracting(h -> h.entry()).containsExactly(stored);
        }
        assertThat(userVersion(file())).isEqualTo(Migrations.CURRENT);
        // opening again finds nothing to do
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            assertThat(provider.get("k", Scope.PROJECT)).isPresent();
        }
    }

    @Test
    void rows_written_at_version_1_are_found_by_search_after_the_migration() throws Exception {
        createAtVersion(1);
        long at = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();
        try (Connection connection = Stores.jdbc(file()); Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO entries (id, project, session, scope, key, value, tags, metadata, created_at, updated_at, version)"
                    + " VALUES (1, 'project-a', '', 'project', 'decision:db', 'We chose PostgreSQL for billing.', '[\"arch\"]',"
                    + " '{\"by\":\"ana\"}', " + at + ", " + (at + 1000) + ", 2),"
                    + " (2, '', '', 'global', 'style', 'Tabs, never spaces.', '[]', '{}', " + at + ", " + at + ", 1)");
            statement.execute("INSERT INTO tags (tag, entry_id) VALUES ('arch', 1)");
            statement.execute("INSERT INTO versions (project, session, scope, key, version, value, tags, metadata, created_at, updated_at)"
                    + " VALUES ('project-a', '', 'project', 'decision:db', 1, 'We chose MySQL.', '[]', '{}', " + at + ", " + at + "),"
                    + " ('project-a', '', 'project', 'decision:db', 2, 'We chose PostgreSQL for billing.', '[\"arch\"]',"
                    + " '{\"by\":\"ana\"}', " + at + ", " + (at + 1000) + "),"
                    + " ('', '', 'global', 'style', 1, 'Tabs, never spaces.', '[]', '{}', " + at + ", " + at + ")");
            statement.execute("INSERT INTO edges (from_entry, type, to_entry, created_at) VALUES (1, 'FOLLOWS', 2, " + at + ")");
        }

        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            MemoryEntry decision = provider.get("decision:db", Scope.PROJECT).orElseThrow();
            assertThat(decision.version()).isEqualTo(2);
            assertThat(decision.tags()).containsExactly("arch");
            assertThat(decision.metadata()).isEqualTo(Map.of("by", "ana"));
            assertThat(provider.search(SearchRequest.keyword("postgresql"))).extracting(h -> h.entry().key())
                    .containsExactly("decision:db");
            assertThat(provider.search(SearchRequest.keyword("tabs spaces"))).extracting(h -> h.entry().key())
                    .containsExactly("style");
            assertThat(provider.search(SearchRequest.keyword("arch"))).as("tags are indexed too").hasSize(1);
            assertThat(provider.requireHistory().versions("decision:db", Scope.PROJECT)).extracting(MemoryEntry::value)
                    .containsExactly("We chose MySQL.", "We chose PostgreSQL for billing.");
            assertThat(provider.requireGraph().relations(EntryRef.of("style", Scope.GLOBAL), Direction.INCOMING)).hasSize(1);
            // the triggers keep the new index in step from now on
            provider.set("decision:db", "We moved to SQLite.", Scope.PROJECT);
            assertThat(provider.search(SearchRequest.keyword("postgresql"))).isEmpty();
            assertThat(provider.set("decision:db", "again", Scope.PROJECT).version()).isEqualTo(4);
            assertThat(provider.doctor()).isEmpty();
        }
        assertThat(userVersion(file())).isEqualTo(Migrations.CURRENT);
    }

    @Test
    void a_database_of_version_3_gets_a_stemmed_keyword_index_holding_its_entries() throws Exception {
        createAtVersion(3);
        long at = Instant.parse("2026-11-01T10:00:00Z").toEpochMilli();
        try (Connection connection = Stores.jdbc(file()); Statement statement = connection.createStatement()) {
            // rows as version 3 wrote them: its triggers fill the unstemmed index
            statement.execute("INSERT INTO entries (id, project, session, scope, key, value, tags, metadata, created_at, updated_at, version)"
                    + " VALUES (1, 'project-a', '', 'project', 'release', 'We deployed the billing service.', '[\"ops\"]',"
                    + " '{}', " + at + ", " + at + ", 1),"
                    + " (2, '', '', 'global', 'style', 'Tabs, never spaces.', '[]', '{}', " + at + ", " + at + ", 1)");
            try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM entries_fts WHERE entries_fts MATCH '\"deploying\"'")) {
                assertThat(rows.next() && rows.getInt(1) == 0).as("version 3 does not stem").isTrue();
            }
        }

        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            assertThat(provider.search(SearchRequest.keyword("deploying"))).extracting(h -> h.entry().key())
                    .containsExactly("release");
            assertThat(provider.search(SearchRequest.keyword("space"))).extracting(h -> h.entry().key())
                    .containsExactly("style");
            assertThat(provider.doctor()).isEmpty();
            // the triggers keep the rebuilt index in step
            provider.set("release", "We rolled back the billing service.", Scope.PROJECT);
            assertThat(provider.search(SearchRequest.keyword("deploying"))).isEmpty();
            assertThat(provider.search(SearchRequest.keyword("rolling"))).extracting(h -> h.entry().key())
                    .containsExactly("release");
        }
        assertThat(userVersion(file())).isEqualTo(Migrations.CURRENT);
        try (Connection connection = Stores.jdbc(file()); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT sql FROM sqlite_schema WHERE name = 'entries_fts'")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).contains("porter unicode61");
        }
    }

    @Test
    void a_database_of_version_5_counts_its_rows_for_the_keyword_scale() throws Exception {
        createAtVersion(5);
        long at = Instant.parse("2026-11-01T10:00:00Z").toEpochMilli();
        try (Connection connection = Stores.jdbc(file()); Statement statement = connection.createStatement()) {
            // rows as version 5 wrote them; the GLOBAL row moves to the global database when the provider opens
            statement.execute("INSERT INTO entries (id, project, session, scope, key, value, tags, metadata, created_at, updated_at, version)"
                    + " VALUES (1, 'project-a', '', 'project', 'release', 'We deployed the billing service.', '[]', '{}', " + at + ", " + at + ", 1),"
                    + " (2, 'project-a', '', 'project', 'notes', 'Billing notes for the quarter.', '[]', '{}', " + at + ", " + at + ", 1),"
                    + " (3, 'project-a', '', 'project', 'budget', 'The quarterly budget review.', '[]', '{}', " + at + ", " + at + ", 1),"
                    + " (4, '', '', 'global', 'style', 'Tabs, never spaces.', '[]', '{}', " + at + ", " + at + ", 1)");
        }
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            assertThat(provider.search(SearchRequest.keyword("deployed"))).singleElement()
                    .satisfies(hit -> assertThat(hit.score())
                            .isCloseTo(-bm25(provider, "deployed") / SearchTest.best(3, 1), within(1e-12)));
            provider.set("style", "Spaces, never tabs.", Scope.GLOBAL); // in the global database: still 3 rows here
            provider.set("plan", "Deploy on Fridays? Never.", Scope.PROJECT);
            assertThat(provider.delete("budget", Scope.PROJECT)).isTrue();
            assertThat(provider.search(SearchRequest.keyword("deployed"))).hasSize(2).first()
                    .satisfies(hit -> assertThat(hit.score())
                            .isCloseTo(-bm25(provider, "deployed") / SearchTest.best(3, 2), within(1e-12)));
            assertThat(provider.doctor()).isEmpty();
        }
        assertThat(userVersion(file())).isEqualTo(Migrations.CURRENT);
    }

    /** The best bm25() of a one-term query, straight from SQLite. */
    private static double bm25(SqliteMemoryProvider provider, String term) {
        return provider.database().read("read bm25", connection -> {
            try (var statement = connection.prepareStatement("SELECT bm25(entries_fts) FROM entries_fts WHERE entries_fts MATCH ?"
                    + " ORDER BY bm25(entries_fts) LIMIT 1")) {
                statement.setString(1, "\"" + term + "\"");
                try (ResultSet rows = statement.executeQuery()) {
                    return rows.next() ? rows.getDouble(1) : 0.0;
                }
            }
        });
    }

    @Test
    void a_database_of_a_newer_schema_is_refused_and_left_byte_identical() throws Exception {
        createAtVersion(Migrations.CURRENT);
        try (Connection connection = Stores.jdbc(file()); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE from_the_future (x)");
            statement.execute("PRAGMA user_version = " + (Migrations.CURRENT + 5));
        }
        byte[] before = Files.readAllBytes(file());
        List<Path> filesBefore = list(file().getParent());

        assertThatThrownBy(() -> Stores.open(directory)).isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining(file().toString())
                .hasMessageContaining("newer forge-memory")
                .hasMessageContaining("version " + (Migrations.CURRENT + 5));

        assertThat(Files.readAllBytes(file())).isEqualTo(before);
        assertThat(list(file().getParent())).isEqualTo(filesBefore);
        assertThat(userVersion(file())).isEqualTo(Migrations.CURRENT + 5);
    }

    @Test
    void a_file_that_is_not_a_database_is_refused_and_left_untouched() throws Exception {
        Files.createDirectories(file().getParent());
        for (String content : List.of("not a database\n", "x".repeat(8192), "SQLite format 2\0 but not really")) {
            Files.writeString(file(), content, StandardCharsets.ISO_8859_1);
            byte[] before = Files.readAllBytes(file());
            assertThatThrownBy(() -> Stores.open(directory)).isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining(file().toString())
                    .hasMessageContaining("not a SQLite database");
            assertThat(Files.readAllBytes(file())).isEqualTo(before);
            assertThat(list(file().getParent())).containsExactly(file());
        }
    }

    @Test
    void a_directory_where_the_file_should_be_is_refused() throws Exception {
        Files.createDirectories(file());
        assertThatThrownBy(() -> Stores.open(directory)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("is a directory");
    }

    @Test
    void the_bundled_sqlite_has_fts5_and_the_json_functions() throws Exception {
        try (Connection connection = Stores.jdbc(directory.resolve("features.db"));
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE VIRTUAL TABLE probe USING fts5(text)");
            statement.execute("INSERT INTO probe (text) VALUES ('hello fts five')");
            try (ResultSet rows = statement.executeQuery("SELECT count(*), json_extract('{\"a\":[1,2]}', '$.a[1]')"
                    + " FROM probe WHERE probe MATCH '\"five\"'")) {
                rows.next();
                assertThat(rows.getInt(1)).isEqualTo(1);
                assertThat(rows.getInt(2)).isEqualTo(2);
            }
        }
    }

    private static List<Path> list(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }
}
