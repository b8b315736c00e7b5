package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.sqlite.internal.Database;
import dev.forge.memory.sqlite.internal.Statements;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read paths with their prepared statements kept per connection: one statement per text and connection, reads that
 * see every commit, no snapshot held between reads, statements dropped after a failure and closed with the database.
 */
class ReadPathTest {

    @TempDir
    Path directory;

    private static PreparedStatement statementOf(Database database, String sql) {
        return database.read("look at the kept statement", connection -> database.prepared(connection, sql));
    }

    @Test
    void a_read_statement_is_prepared_once_per_connection_and_closed_with_the_database() throws Exception {
        PreparedStatement get;
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("k", "v", Scope.PROJECT);
            assertThat(provider.get("k", Scope.PROJECT)).isPresent();
            get = statementOf(provider.database(), Statements.GET);
            assertThat(provider.get("k", Scope.PROJECT)).isPresent();
            // one thread borrows the same idle reader again, and finds the statement it used
            assertThat(statementOf(provider.database(), Statements.GET)).isSameAs(get);
            assertThat(get.isClosed()).isFalse();
        }
        assertThat(get.isClosed()).isTrue();
    }

    @Test
    void reads_through_kept_statements_see_each_commit() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("note:a", "first draft of the walrus plan", Scope.PROJECT);
            assertThat(provider.get("note:a", Scope.PROJECT)).map(MemoryEntry::value).contains("first draft of the walrus plan");
            assertThat(provider.query(Query.of("note:*"))).extracting(MemoryEntry::key).containsExactly("note:a");
            assertThat(provider.search(SearchRequest.keyword("walrus"))).hasSize(1);

            provider.set("note:a", "second draft of the penguin plan", Scope.PROJECT);
            provider.set("note:b", "walrus census", Scope.PROJECT);
            assertThat(provider.get("note:a", Scope.PROJECT)).map(MemoryEntry::value).contains("second draft of the penguin plan");
            assertThat(provider.query(Query.of("note:*"))).extracting(MemoryEntry::key).containsExactly("note:a", "note:b");
            assertThat(provider.search(SearchRequest.keyword("walrus"))).extracting(h -> h.entry().key()).containsExactly("note:b");
            assertThat(provider.requireHistory().versions("note:a", Scope.PROJECT)).hasSize(2);

            provider.delete("note:b", Scope.PROJECT);
            assertThat(provider.get("note:b", Scope.PROJECT)).isEmpty();
            assertThat(provider.search(SearchRequest.keyword("walrus"))).isEmpty();
        }
    }

    @Test
    void kept_statements_hold_no_snapshot_between_reads_so_a_checkpoint_completes() throws Exception {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            for (int i = 0; i < 20; i++) {
                provider.set("note:" + i, "harbour log entry " + i, Scope.PROJECT, List.of("log"), Map.of("n", i));
            }
            provider.get("note:3", Scope.PROJECT);
            provider.query(Query.builder().pattern("note:*").limit(5).build());
            provider.query(Query.of("tag:log"));
            provider.search(SearchRequest.keyword("harbour"));
            provider.requireHistory().versions("note:3", Scope.PROJECT);
            try (Connection raw = Stores.jdbc(provider.databaseFile()); Statement statement = raw.createStatement();
                 ResultSet result = statement.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                assertThat(result.next()).isTrue();
                assertThat(result.getInt(1)).as("busy: a reader still holds a snapshot").isZero();
            }
        }
    }

    @Test
    void a_read_that_fails_drops_its_statements_and_the_next_read_works() throws Exception {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("good", "fine", Scope.PROJECT);
            provider.set("bad", "fine too", Scope.PROJECT);
            try (Connection raw = Stores.jdbc(provider.databaseFile()); Statement statement = raw.createStatement()) {
                statement.execute("UPDATE entries SET tags = '[1]' WHERE key = 'bad'");
            }
            provider.get("good", Scope.PROJECT);
            PreparedStatement before = statementOf(provider.database(), Statements.GET);
            assertThatThrownBy(() -> provider.get("bad", Scope.PROJECT)).isInstanceOf(CorruptEntryException.class)
                    .hasMessageContaining("'bad'").hasMessageContaining("tags");
            assertThat(before.isClosed()).isTrue();
            assertThat(provider.get("good", Scope.PROJECT)).map(MemoryEntry::value).contains("fine");
        }
    }
}
