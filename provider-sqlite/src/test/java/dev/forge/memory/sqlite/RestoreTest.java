package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConflictException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StorageException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restores against the SQLite file itself: what the rows hold afterwards, a restore that fails halfway or meets another
 * connection's lock, transactions that read the key before, and the keyword index and relations following the key.
 */
class RestoreTest {

    private static final Instant T1 = Instant.parse("2020-01-02T03:04:05.006Z");
    private static final Instant T2 = Instant.parse("2021-01-02T03:04:05.006Z");
    private static final Instant T3 = Instant.parse("2022-01-02T03:04:05.006Z");

    @TempDir
    Path directory;

    /** Versions 1, 2 and 4 of {@code key} (3 was a deletion), each value {@code words} with its number. */
    static List<MemoryEntry> chain(String key, String words) {
        return List.of(new MemoryEntry(key, words + " one", Scope.PROJECT, List.of("imported"), Map.of("n", 1L), T1, T1, 1),
                new MemoryEntry(key, words + " two", Scope.PROJECT, List.of("imported"), Map.of("n", 2L), T1, T2, 2),
                new MemoryEntry(key, words + " four", Scope.PROJECT, List.of("imported", "current"), Map.of("n", 4L), T2, T3, 4));
    }

    private static EntryRef ref(String key) {
        return EntryRef.of(key, Scope.PROJECT);
    }

    private static List<String> keysFound(SqliteMemoryProvider provider, String text) {
        return provider.search(SearchRequest.keyword(text)).stream().map(h -> h.entry().key()).toList();
    }

    /** The version rows of {@code key} in the PROJECT scope, as "version:tombstone:value", read with plain JDBC. */
    private static List<String> versionRows(Path file, String key) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = Stores.jdbc(file); PreparedStatement statement = connection.prepareStatement(
                "SELECT version, tombstone, value FROM versions WHERE project = ? AND session = '' AND scope = 'project'"
                        + " AND key = ? ORDER BY version")) {
            statement.setString(1, Stores.PROJECT);
            statement.setString(2, key);
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    rows.add(result.getLong(1) + ":" + result.getInt(2) + ":" + result.getString(3));
                }
            }
        }
        return rows;
    }

    @Test
    void the_file_holds_exactly_the_restored_chain_and_a_fresh_open_continues_it() throws SQLException {
        Path file;
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            file = provider.databaseFile();
            for (int i = 0; i < 6; i++) {
                provider.set("k", "written " + i, Scope.PROJECT);
            }
            provider.delete("k", Scope.PROJECT);
            provider.requireRestoring().restore(chain("k", "restored"));
        }
        assertThat(versionRows(file, "k")).as("no tombstone, no older version, the gap kept")
                .containsExactly("1:0:restored one", "2:0:restored two", "4:0:restored four");

        try (SqliteMemoryProvider reopened = Stores.open(directory)) {
            assertThat(reopened.get("k", Scope.PROJECT)).contains(chain("k", "restored").get(2));
            assertThat(reopened.requireHistory().versions("k", Scope.PROJECT)).containsExactlyElementsOf(chain("k", "restored"));
            assertThat(reopened.delete("k", Scope.PROJECT)).isTrue();
            MemoryEntry again = reopened.set("k", "after the tombstone", Scope.PROJECT);
            assertThat(again.version()).as("tombstone 5, then 6").isEqualTo(6);
            assertThat(reopened.doctor()).isEmpty();
        }
        assertThat(versionRows(file, "k")).containsExactly("1:0:restored one", "2:0:restored two", "4:0:restored four",
                "5:1:null", "6:0:after the tombstone");
    }

    @Test
    void a_restore_that_fails_halfway_leaves_the_key_its_relations_and_the_search_index_as_they_were() throws SQLException {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("k", "original zebra text", Scope.PROJECT);
            MemoryEntry current = provider.set("k", "current zebra text", Scope.PROJECT);
            provider.set("other", "other end", Scope.PROJECT);
            Relation out = provider.requireGraph().relate(ref("k"), ref("other"), "LINKS");
            Relation in = provider.requireGraph().relate(ref("other"), ref("k"), "USES");
            List<MemoryEntry> history = provider.requireHistory().versions("k", Scope.PROJECT);
            // A real failure inside the transaction, after the old versions are deleted and the live row rewritten:
            // the second version row refuses to be inserted.
            try (Connection other = Stores.jdbc(provider.databaseFile()); Statement statement = other.createStatement()) {
                statement.execute("CREATE TRIGGER fail_second_version BEFORE INSERT ON versions"
                        + " WHEN new.value = 'penguin two' BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
            }

            assertThatThrownBy(() -> provider.requireRestoring().restore(chain("k", "penguin")))
                    .isInstanceOf(StorageException.class).hasMessageContaining("injected failure");

            assertThat(provider.get("k", Scope.PROJECT)).contains(current);
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).containsExactlyElementsOf(history);
            assertThat(provider.requireGraph().relations(ref("k"), Direction.BOTH)).containsExactlyInAnyOrder(out, in);
            assertThat(keysFound(provider, "zebra")).containsExactly("k");
            assertThat(keysFound(provider, "penguin")).isEmpty();
            assertThat(provider.doctor()).isEmpty();

            try (Connection other = Stores.jdbc(provider.databaseFile()); Statement statement = other.createStatement()) {
                statement.execute("DROP TRIGGER fail_second_version");
            }
            provider.requireRestoring().restore(chain("k", "penguin"));
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).containsExactlyElementsOf(chain("k", "penguin"));
            assertThat(provider.requireGraph().relations(ref("k"), Direction.BOTH)).containsExactlyInAnyOrder(out, in);
        }
    }

    /** {@code chain(key, words)} moved to {@code scope}. */
    private static List<MemoryEntry> chainIn(String key, String words, Scope scope) {
        return chain(key, words).stream().map(v -> new MemoryEntry(v.key(), v.value(), scope, v.tags(), v.metadata(),
                v.createdAt(), v.updatedAt(), v.version())).toList();
    }

    @Test
    void a_batch_that_fails_in_either_file_applies_nothing_in_both() throws SQLException {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            MemoryEntry before = provider.set("b", "before the batch", Scope.PROJECT);
            List<List<MemoryEntry>> batch = List.of(chainIn("a", "alpha", Scope.PROJECT), chainIn("b", "beta", Scope.PROJECT),
                    chainIn("g", "gamma", Scope.GLOBAL), chainIn("z", "penguin", Scope.PROJECT));
            for (Path file : List.of(provider.databaseFile(), provider.globalDatabaseFile())) {
                String failOn = file.equals(provider.databaseFile()) ? "penguin two" : "gamma four";
                // A real failure inside the batch's transaction, after other keys of the batch were written.
                try (Connection other = Stores.jdbc(file); Statement statement = other.createStatement()) {
                    statement.execute("CREATE TRIGGER fail_in_batch BEFORE INSERT ON versions WHEN new.value = '" + failOn
                            + "' BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
                }

                assertThatThrownBy(() -> provider.requireRestoring().restoreAll(batch))
                        .isInstanceOf(StorageException.class).hasMessageContaining("injected failure");

                assertThat(provider.get("a", Scope.PROJECT)).isEmpty();
                assertThat(provider.get("b", Scope.PROJECT)).contains(before);
                assertThat(provider.get("g", Scope.GLOBAL)).isEmpty();
                assertThat(provider.get("z", Scope.PROJECT)).isEmpty();
                assertThat(versionRows(provider.databaseFile(), "a")).isEmpty();
                assertThat(keysFound(provider, "alpha")).isEmpty();
                try (Connection other = Stores.jdbc(file); Statement statement = other.createStatement()) {
                    statement.execute("DROP TRIGGER fail_in_batch");
                }
            }
            assertThat(provider.requireRestoring().restoreAll(batch)).extracting(MemoryEntry::value)
                    .containsExactly("alpha four", "beta four", "gamma four", "penguin four");
            assertThat(provider.requireHistory().versions("g", Scope.GLOBAL)).containsExactlyElementsOf(batch.get(2));
            assertThat(keysFound(provider, "alpha")).containsExactly("a");
            assertThat(provider.doctor()).isEmpty();
        }
    }

    @Test
    void a_lock_held_past_busy_timeout_fails_the_restore_and_changes_nothing() throws SQLException {
        try (SqliteMemoryProvider provider = Stores.open(directory, Map.of("busy_timeout", "200ms"))) {
            MemoryEntry stored = provider.set("k", "before the lock", Scope.PROJECT);
            try (Connection other = Stores.jdbc(provider.databaseFile()); Statement statement = other.createStatement()) {
                statement.execute("BEGIN IMMEDIATE");
                assertThatThrownBy(() -> provider.requireRestoring().restore(chain("k", "blocked")))
                        .isInstanceOf(BackendUnavailableException.class).hasMessageContaining("busy_timeout (200ms)");
                statement.execute("ROLLBACK");
            }
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).containsExactly(stored);

            provider.requireRestoring().restore(chain("k", "unblocked"));
            assertThat(provider.get("k", Scope.PROJECT)).contains(chain("k", "unblocked").get(2));
        }
    }

    @Test
    void a_transaction_that_read_the_key_before_a_restore_fails_its_commit() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("k", "before", Scope.PROJECT);
            MemoryTransaction tx = provider.requireTransactions().begin();
            tx.set("k", "from the transaction", Scope.PROJECT);

            provider.requireRestoring().restore(chain("k", "restored"));

            assertThatThrownBy(tx::commit).isInstanceOf(ConflictException.class);
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).containsExactlyElementsOf(chain("k", "restored"));
        }
    }

    @Test
    void a_transaction_that_never_saw_the_key_fails_its_commit_when_a_restore_created_it() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            MemoryTransaction tx = provider.requireTransactions().begin();
            assertThat(tx.get("k", Scope.PROJECT)).isEmpty();
            tx.set("k", "from the transaction", Scope.PROJECT);

            provider.requireRestoring().restore(chain("k", "restored"));

            assertThatThrownBy(tx::commit).isInstanceOf(ConflictException.class);
            assertThat(provider.get("k", Scope.PROJECT)).contains(chain("k", "restored").get(2));
        }
    }

    @Test
    void the_search_index_follows_every_kind_of_restore_and_doctor_finds_nothing() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("live", "walrus on the ice", Scope.PROJECT);
            provider.set("deleted", "narwhal in the fjord", Scope.PROJECT);
            provider.delete("deleted", Scope.PROJECT);

            provider.requireRestoring().restore(chain("live", "penguin colony"));
            provider.requireRestoring().restore(chain("deleted", "albatross flight"));
            provider.requireRestoring().restore(chain("new", "puffin burrow"));
            provider.requireRestoring().restore(chain("new", "puffin burrow"));

            assertThat(keysFound(provider, "walrus")).isEmpty();
            assertThat(keysFound(provider, "narwhal")).isEmpty();
            assertThat(keysFound(provider, "penguin")).containsExactly("live");
            assertThat(keysFound(provider, "albatross")).containsExactly("deleted");
            assertThat(keysFound(provider, "puffin")).containsExactly("new");
            assertThat(keysFound(provider, "one")).as("only the current version is indexed").isEmpty();
            assertThat(keysFound(provider, "current")).as("tags of the current version")
                    .containsExactlyInAnyOrder("live", "deleted", "new");
            assertThat(provider.searchWithSnippets(SearchRequest.keyword("puffin")))
                    .singleElement().satisfies(hit -> assertThat(hit.snippet()).contains("**puffin**"));
            assertThat(provider.doctor()).isEmpty();
        }
    }

    @Test
    void a_restored_key_keeps_its_row_and_so_the_relations_both_ways_and_in_traversals() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("a", "start", Scope.PROJECT);
            provider.set("k", "middle", Scope.PROJECT);
            provider.set("z", "end", Scope.PROJECT);
            provider.requireGraph().relate(ref("a"), ref("k"), "NEXT");
            provider.requireGraph().relate(ref("k"), ref("z"), "NEXT");

            provider.requireRestoring().restore(chain("k", "restored middle"));

            assertThat(provider.requireGraph().traverse(ref("a"), new dev.forge.memory.Traversal(java.util.Set.of("NEXT"),
                    Direction.OUTGOING, 3))).extracting(path -> path.end()).contains(ref("z"));
            assertThat(provider.requireGraph().relations(ref("k"), Direction.BOTH)).hasSize(2);
            assertThat(provider.doctor()).isEmpty();
        }
    }
}
