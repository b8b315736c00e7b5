package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sharing one file, locks held by others, damaged rows, and the metadata index. */
class LifecycleTest {

    @TempDir
    Path directory;

    @Test
    void providers_of_one_jvm_share_the_file_and_closing_one_leaves_the_others_working() {
        SqliteMemoryProvider first = Stores.open(directory);
        try (SqliteMemoryProvider second = Stores.open(directory)) {
            first.set("k", "v", Scope.PROJECT);
            first.close();
            first.close();
            assertThatThrownBy(() -> first.get("k", Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class)
                    .hasMessageContaining("closed");
            assertThat(second.get("k", Scope.PROJECT)).isPresent();
            assertThat(second.set("k", "w", Scope.PROJECT).version()).isEqualTo(2);
        }
        try (SqliteMemoryProvider again = Stores.open(directory)) {
            assertThat(again.get("k", Scope.PROJECT).orElseThrow().value()).isEqualTo("w");
        }
    }

    @Test
    void a_lock_held_longer_than_busy_timeout_is_a_backend_unavailable_error_and_changes_nothing() throws Exception {
        try (SqliteMemoryProvider provider = Stores.open(directory, Map.of("busy_timeout", "200ms"))) {
            MemoryEntry stored = provider.set("k", "v", Scope.PROJECT);
            try (Connection other = Stores.jdbc(provider.databaseFile()); Statement statement = other.createStatement()) {
                statement.execute("BEGIN IMMEDIATE");
                long start = System.nanoTime();
                assertThatThrownBy(() -> provider.set("k", "blocked", Scope.PROJECT))
                        .isInstanceOf(BackendUnavailableException.class)
                        .hasMessageContaining("busy_timeout (200ms)")
                        .hasMessageContaining(provider.databaseFile().toString());
                assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(150_000_000L);
                // WAL: readers go on while another process writes
                assertThat(provider.get("k", Scope.PROJECT)).contains(stored);
                statement.execute("ROLLBACK");
            }
            assertThat(provider.set("k", "free again", Scope.PROJECT).version()).isEqualTo(2);
        }
    }

    @Test
    void damaged_rows_are_reported_by_doctor_skipped_by_queries_and_refused_by_get() throws Exception {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("good", "fine text", Scope.PROJECT, List.of("t"), Map.of());
            provider.set("bad", "damaged text", Scope.PROJECT, List.of("t"), Map.of());
            assertThat(provider.doctor()).isEmpty();
            try (Connection raw = Stores.jdbc(provider.databaseFile()); Statement statement = raw.createStatement()) {
                statement.execute("PRAGMA ignore_check_constraints = ON");
                statement.execute("UPDATE entries SET metadata = '{not json' WHERE key = 'bad'");
                statement.execute("PRAGMA foreign_keys = OFF");
                statement.execute("INSERT INTO edges (from_entry, type, to_entry, created_at) VALUES (999, 'LINKS', 998, 0)");
            }
            assertThatThrownBy(() -> provider.get("bad", Scope.PROJECT)).isInstanceOf(CorruptEntryException.class)
                    .hasMessageContaining("'bad'").hasMessageContaining("metadata");
            assertThat(provider.query(Query.of("tag:t"))).extracting(MemoryEntry::key).containsExactly("good");
            assertThat(provider.search(SearchRequest.keyword("text"))).extracting(h -> h.entry().key()).containsExactly("good");
            List<StoreProblem> problems = provider.doctor();
            assertThat(problems).allSatisfy(p -> assertThat(p.location()).isEqualTo(provider.databaseFile().toString()));
            assertThat(problems).anySatisfy(p -> assertThat(p.problem()).contains("table entries").contains("'bad'"));
            assertThat(problems).anySatisfy(p -> assertThat(p.problem()).contains("foreign_key_check").contains("edges"));
            assertThat(problems).noneSatisfy(p -> assertThat(p.problem()).contains("damaged text"));
            // purging the key is one way out
            assertThat(provider.requireHistory().purge("bad", Scope.PROJECT)).isTrue();
            assertThat(provider.doctor()).noneSatisfy(p -> assertThat(p.problem()).contains("'bad'"));
        }
    }

    @Test
    void a_search_index_out_of_step_with_the_entries_is_reported() throws Exception {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("k", "walrus facts", Scope.PROJECT);
            try (Connection raw = Stores.jdbc(provider.databaseFile()); Statement statement = raw.createStatement()) {
                statement.execute("DROP TRIGGER entries_fts_update");
                statement.execute("UPDATE entries SET value = 'penguin facts' WHERE key = 'k'");
            }
            assertThat(provider.doctor()).anySatisfy(p -> assertThat(p.problem()).contains("keyword search index")
                    .contains("rebuild"));
        }
    }

    @Test
    void metadata_fields_are_indexed_safely_and_queries_stay_exact() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("a", "v", Scope.PROJECT, List.of(), Map.of("it's", "x", "flag", true, "n", 2));
            provider.set("b", "v", Scope.PROJECT, List.of(), Map.of("it's", "y", "flag", 1, "n", 2.0));
            provider.set("c", "v", Scope.PROJECT, List.of(), Map.of("it's", List.of("x"), "n", "2"));
            for (String field : List.of("it's", "flag", "n", "owner.team", "日本")) {
                provider.requireFieldIndexing().index("metadata." + field);
                provider.requireFieldIndexing().index("metadata." + field); // idempotent
            }
            assertThat(keys(provider, Query.builder().metadata("it's", "x").build())).containsExactly("a");
            assertThat(keys(provider, Query.builder().metadata("flag", true).build())).containsExactly("a");
            assertThat(keys(provider, Query.builder().metadata("flag", 1).build())).containsExactly("b");
            assertThat(keys(provider, Query.builder().metadata("n", 2).build())).containsExactly("a", "b");
            assertThat(keys(provider, Query.builder().metadata("n", "2").limit(5).build())).containsExactly("c");
            for (String bad : List.of("", "say \"hi\"", "back\\slash", "tab\there")) {
                assertThatThrownBy(() -> provider.requireFieldIndexing().index("metadata." + bad)).isInstanceOf(InvalidRequestException.class);
            }
        }
    }

    private static List<String> keys(SqliteMemoryProvider provider, Query query) {
        return provider.query(query).stream().map(MemoryEntry::key).toList();
    }
}
