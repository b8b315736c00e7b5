package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Query;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.sqlite.internal.Migrations;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GLOBAL entries in the shared global database under the forge home ({@code global_path}): where they live, stores
 * written before it existed (their GLOBAL rows move, crash-safely, and a conflicting key is kept and reported), one file
 * for both, and clear errors for a global database that cannot be used.
 */
class SharedGlobalStoreTest {

    @TempDir
    Path directory;

    private Path forgeHome() {
        return directory.resolve("forge-home");
    }

    private Path globalFile() {
        return forgeHome().resolve("memory.db");
    }

    private Path projectFile() {
        return Stores.databaseFile(directory);
    }

    /** A provider of another project, in its own directory, with the same forge home. */
    private SqliteMemoryProvider openOtherProject(Map<String, ?> config) throws Exception {
        Path other = Files.createDirectories(directory.resolve("other-checkout"));
        ProviderContext context = ProviderContext.builder().projectId("project-b").sessionId("session-b")
                .baseDirectory(other).forgeHome(forgeHome()).config(ProviderConfig.of(config, "test", "memory.config")).build();
        return (SqliteMemoryProvider) new SqliteMemoryProviderFactory().open(context);
    }

    /** A provider as main wrote stores: GLOBAL in the project file (global_path naming it). */
    private SqliteMemoryProvider openOldWay() {
        return Stores.open(directory, Map.of("global_path", ".forge/memory.db"));
    }

    /**
     * Makes the project file what the last release left: schema version 2, no links table, no search_text column, no entry_count (the
     * keyword index and its triggers are left for step 4 to replace: their bodies do not matter, only their names).
     */
    private void downgradeToLastRelease() throws SQLException {
        try (Connection connection = Stores.jdbc(projectFile()); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE links");
            statement.execute("DROP TRIGGER entry_count_insert");
            statement.execute("DROP TRIGGER entry_count_delete");
            statement.execute("DROP TABLE entry_count");
            for (String trigger : List.of("entries_fts_insert", "entries_fts_delete", "entries_fts_update")) {
                statement.execute("DROP TRIGGER " + trigger);
            }
            statement.execute("DROP TABLE search_settings");
            statement.execute("ALTER TABLE entries DROP COLUMN search_text");
            for (String trigger : List.of("entries_fts_insert AFTER INSERT", "entries_fts_delete AFTER DELETE",
                    "entries_fts_update AFTER UPDATE")) {
                statement.execute("CREATE TRIGGER " + trigger + " ON entries BEGIN SELECT 1; END");
            }
            statement.execute("PRAGMA user_version = 2");
        }
    }

    private long globalRowsIn(Path file) throws SQLException {
        try (Connection connection = Stores.jdbc(file); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT (SELECT count(*) FROM entries WHERE scope = 'global')"
                     + " + (SELECT count(*) FROM versions WHERE scope = 'global')")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    @Test
    void global_lives_in_the_forge_home_and_project_entries_in_the_project_file() throws Exception {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("learning", "shared", Scope.GLOBAL);
            provider.set("build", "maven", Scope.PROJECT);
            assertThat(provider.globalDatabaseFile()).isEqualTo(globalFile().toRealPath());
            assertThat(provider.databaseFile()).isEqualTo(projectFile().toRealPath());
        }
        assertThat(globalRowsIn(projectFile())).isZero();
        assertThat(globalRowsIn(globalFile())).isEqualTo(2); // the live row and its version
    }

    @Test
    void every_project_file_name_shares_the_one_global_database_of_the_user() throws Exception {
        // GLOBAL is the user's, whatever a project calls its file (a hybrid router keeps its children's copies apart
        // itself: HybridGlobalCopiesTest).
        try (SqliteMemoryProvider storage = Stores.open(directory);
             SqliteMemoryProvider renamed = openOtherProject(Map.of("path", ".forge/project.db"))) {
            MemoryEntry stored = storage.set("g", "v", Scope.GLOBAL);
            assertThat(renamed.get("g", Scope.GLOBAL)).contains(stored);
            assertThat(renamed.globalDatabaseFile()).isEqualTo(forgeHome().resolve("memory.db").toRealPath());
        }
    }

    @Test
    void one_file_for_both_works_as_one_store_when_global_path_names_the_project_file() throws Exception {
        try (SqliteMemoryProvider provider = openOldWay()) {
            provider.set("g", "x", Scope.GLOBAL);
            provider.set("p", "y", Scope.PROJECT);
            provider.requireGraph().relate(EntryRef.of("p", Scope.PROJECT), EntryRef.of("g", Scope.GLOBAL), "uses");
            assertThat(provider.globalDatabaseFile()).isEqualTo(provider.databaseFile());
            assertThat(provider.query(Query.builder().build())).extracting(MemoryEntry::key).containsExactly("g", "p");
            assertThat(provider.doctor()).isEmpty();
        }
        assertThat(Files.exists(globalFile())).isFalse();
        assertThat(globalRowsIn(projectFile())).isEqualTo(2);
    }

    @Test
    void a_project_whose_path_is_the_forge_home_database_keeps_everything_in_that_one_file() throws Exception {
        try (SqliteMemoryProvider provider = Stores.open(directory, Map.of("path", globalFile().toString()))) {
            provider.set("g", "x", Scope.GLOBAL);
            assertThat(provider.globalDatabaseFile()).isEqualTo(provider.databaseFile());
        }
        try (SqliteMemoryProvider other = openOtherProject(Map.of())) {
            assertThat(other.get("g", Scope.GLOBAL).orElseThrow().value()).isEqualTo("x");
        }
    }

    @Test
    void an_old_project_database_moves_its_global_entries_with_history_and_relations() throws Exception {
        MemoryEntry learned;
        MemoryEntry other;
        try (SqliteMemoryProvider old = openOldWay()) {
            old.set("learning", "first", Scope.GLOBAL, List.of("a"), Map.of("n", 1));
            learned = old.set("learning", "second", Scope.GLOBAL, List.of("b"), Map.of());
            old.set("gone", "deleted later", Scope.GLOBAL);
            old.delete("gone", Scope.GLOBAL);
            other = old.set("other", "global too", Scope.GLOBAL);
            old.set("build", "maven", Scope.PROJECT);
            old.requireGraph().relate(EntryRef.of("build", Scope.PROJECT), EntryRef.of("learning", Scope.GLOBAL), "uses");
            old.requireGraph().relate(EntryRef.of("learning", Scope.GLOBAL), EntryRef.of("other", Scope.GLOBAL), "see");
        }
        downgradeToLastRelease();
        List<MemoryEntry> history;
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            assertThat(provider.get("learning", Scope.GLOBAL)).contains(learned);
            history = provider.requireHistory().versions("learning", Scope.GLOBAL);
            assertThat(history).extracting(MemoryEntry::value).containsExactly("first", "second");
            assertThat(history.get(0).metadata()).isEqualTo(Map.of("n", 1L));
            assertThat(provider.requireHistory().deletedKeys(Scope.GLOBAL)).containsExactly("gone");
            assertThat(provider.requireHistory().versions("gone", Scope.GLOBAL)).extracting(MemoryEntry::value)
                    .containsExactly("deleted later");
            assertThat(provider.query(Query.builder().tag("b").build())).containsExactly(learned);
            assertThat(provider.search(SearchRequest.keyword("second"))).extracting(h -> h.entry().key())
                    .containsExactly("learning");
            assertThat(provider.requireGraph().relations(EntryRef.of("learning", Scope.GLOBAL), Direction.BOTH))
                    .extracting(Relation::type).containsExactly("see", "uses");
            assertThat(provider.doctor()).isEmpty();
        }
        assertThat(globalRowsIn(projectFile())).isZero();
        try (SqliteMemoryProvider second = openOtherProject(Map.of())) {
            assertThat(second.get("other", Scope.GLOBAL)).contains(other);
            assertThat(second.requireHistory().versions("learning", Scope.GLOBAL)).isEqualTo(history);
            // The relation to project-a's PROJECT entry is not visible from project-b.
            assertThat(second.requireGraph().relations(EntryRef.of("learning", Scope.GLOBAL), Direction.BOTH))
                    .extracting(Relation::type).containsExactly("see");
        }
    }

    @Test
    void a_crash_between_the_two_commits_of_the_move_loses_nothing_and_the_next_open_finishes_it() throws Exception {
        try (SqliteMemoryProvider old = openOldWay()) {
            old.set("learning", "v1", Scope.GLOBAL);
            old.set("learning", "v2", Scope.GLOBAL);
            old.set("build", "maven", Scope.PROJECT);
            old.requireGraph().relate(EntryRef.of("build", Scope.PROJECT), EntryRef.of("learning", Scope.GLOBAL), "uses");
        }
        downgradeToLastRelease();
        Path beforeMove = directory.resolve("before-move.db");
        Files.copy(projectFile(), beforeMove);
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            assertThat(provider.get("learning", Scope.GLOBAL)).isPresent();
        }
        // What a crash after the global file's commit and before the project file's leaves: the rows in both files.
        Files.copy(beforeMove, projectFile(), StandardCopyOption.REPLACE_EXISTING);
        assertThat(globalRowsIn(projectFile())).isEqualTo(3);
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            assertThat(provider.requireHistory().versions("learning", Scope.GLOBAL)).extracting(MemoryEntry::value)
                    .containsExactly("v1", "v2");
            assertThat(provider.requireGraph().relations(EntryRef.of("build", Scope.PROJECT), Direction.OUTGOING))
                    .extracting(r -> r.to().key()).containsExactly("learning");
            assertThat(provider.doctor()).isEmpty();
        }
        assertThat(globalRowsIn(projectFile())).isZero();
        assertThat(globalRowsIn(globalFile())).isEqualTo(3);
    }

    @Test
    void an_old_global_key_the_shared_store_holds_otherwise_stays_in_the_project_file_and_doctor_says_what_to_do()
            throws Exception {
        try (SqliteMemoryProvider other = openOtherProject(Map.of())) {
            other.set("style", "tabs", Scope.GLOBAL);
        }
        try (SqliteMemoryProvider old = openOldWay()) {
            old.set("style", "spaces", Scope.GLOBAL);
            old.set("fresh", "moves", Scope.GLOBAL);
        }
        downgradeToLastRelease();
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            assertThat(provider.get("style", Scope.GLOBAL).orElseThrow().value()).isEqualTo("tabs");
            assertThat(provider.get("fresh", Scope.GLOBAL).orElseThrow().value()).isEqualTo("moves");
            List<StoreProblem> problems = provider.doctor();
            assertThat(problems).hasSize(1);
            assertThat(problems.get(0).location()).isEqualTo(projectFile().toRealPath().toString());
            assertThat(problems.get(0).problem()).contains("'style'", "global_path", "delete");
        }
        try (SqliteMemoryProvider old = openOldWay()) {
            assertThat(old.get("style", Scope.GLOBAL).orElseThrow().value()).isEqualTo("spaces");
        }
    }

    @Test
    void a_forge_home_that_is_a_file_fails_clearly_and_leaves_the_project_database_as_it_was() throws Exception {
        try (SqliteMemoryProvider provider = openOldWay()) {
            provider.set("p", "kept", Scope.PROJECT);
        }
        byte[] before = Files.readAllBytes(projectFile());
        Files.writeString(forgeHome(), "not a directory");
        assertThatThrownBy(() -> Stores.open(directory)).isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("global_path").hasMessageContaining(globalFile().toString());
        assertThat(Files.readAllBytes(projectFile())).isEqualTo(before);
        try (SqliteMemoryProvider provider = openOldWay()) {
            assertThat(provider.get("p", Scope.PROJECT).orElseThrow().value()).isEqualTo("kept");
        }
    }

    @Test
    void a_global_database_locked_past_busy_timeout_fails_the_open_and_the_old_global_rows_stay() throws Exception {
        try (SqliteMemoryProvider old = openOldWay()) {
            old.set("learning", "kept", Scope.GLOBAL);
        }
        downgradeToLastRelease();
        try (SqliteMemoryProvider other = openOtherProject(Map.of())) {
            other.set("other", "creates the shared database", Scope.GLOBAL);
        }
        try (Connection lock = Stores.jdbc(globalFile()); Statement statement = lock.createStatement()) {
            statement.execute("BEGIN IMMEDIATE");
            assertThatThrownBy(() -> Stores.open(directory, Map.of("busy_timeout", "0")))
                    .isInstanceOf(BackendUnavailableException.class).hasMessageContaining(globalFile().toString());
            statement.execute("ROLLBACK");
        }
        assertThat(globalRowsIn(projectFile())).isEqualTo(2);
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            assertThat(provider.get("learning", Scope.GLOBAL).orElseThrow().value()).isEqualTo("kept");
        }
        assertThat(globalRowsIn(projectFile())).isZero();
    }

    @Test
    void a_global_path_that_is_a_directory_or_not_a_database_is_refused_naming_global_path() throws Exception {
        Files.createDirectories(directory.resolve("shared-dir"));
        assertThatThrownBy(() -> Stores.open(directory, Map.of("global_path", "shared-dir")))
                .isInstanceOfSatisfying(ConfigurationException.class,
                        e -> assertThat(e.field()).contains("global_path"))
                .hasMessageContaining("'global_path' must name a file");
        Path notADatabase = directory.resolve("notes.txt");
        Files.writeString(notADatabase, "these are my notes, not a database; keep them");
        assertThatThrownBy(() -> Stores.open(directory, Map.of("global_path", "notes.txt")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("not a SQLite database")
                .hasMessageContaining("global_path");
        assertThat(Files.readString(notADatabase)).isEqualTo("these are my notes, not a database; keep them");
    }

    @Test
    void a_global_database_of_a_newer_release_is_refused_and_left_untouched() throws Exception {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("g", "x", Scope.GLOBAL);
        }
        try (Connection connection = Stores.jdbc(globalFile()); Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA user_version = " + (Migrations.CURRENT + 1));
        }
        assertThatThrownBy(() -> Stores.open(directory)).isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("global_path").hasMessageContaining("newer forge-memory");
        assertThat(Files.exists(projectFile())).isTrue();
    }

    @Test
    void a_transaction_over_project_and_global_applies_to_both_files_or_neither() throws Exception {
        try (SqliteMemoryProvider provider = Stores.open(directory); SqliteMemoryProvider other = openOtherProject(Map.of())) {
            var tx = provider.requireTransactions().begin();
            tx.set("p", "1", Scope.PROJECT);
            tx.get("g", Scope.GLOBAL);
            tx.set("g", "1", Scope.GLOBAL);
            other.set("g", "from the other project", Scope.GLOBAL); // changes a key the transaction read
            assertThatThrownBy(tx::commit).isInstanceOf(MemoryException.class);
            assertThat(provider.get("p", Scope.PROJECT)).isEmpty();
            assertThat(provider.get("g", Scope.GLOBAL).orElseThrow().value()).isEqualTo("from the other project");

            var second = provider.requireTransactions().begin();
            second.set("p", "2", Scope.PROJECT);
            second.set("g", "2", Scope.GLOBAL);
            second.commit();
            assertThat(provider.get("p", Scope.PROJECT).orElseThrow().value()).isEqualTo("2");
            assertThat(other.get("g", Scope.GLOBAL).orElseThrow().value()).isEqualTo("2");
        }
    }
}
