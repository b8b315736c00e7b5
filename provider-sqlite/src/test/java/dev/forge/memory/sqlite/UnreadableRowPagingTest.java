package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows whose stored JSON cannot be decoded (damaged by another tool) are skipped by {@code query}, and the pages of a
 * paged query are still full and consecutive over the readable entries: a limit counts readable entries, and so does
 * an offset, so that paging by offset reads every readable entry once.
 */
class UnreadableRowPagingTest {

    @TempDir
    Path directory;

    @Test
    void pages_are_full_over_readable_rows_and_offsets_count_readable_entries() throws Exception {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            for (int i = 0; i < 10; i++) {
                provider.set("k" + i, "value " + i, Scope.PROJECT);
            }
            damage(provider, "k1", "k5");

            for (Query.Order order : Query.Order.values()) {
                List<String> paged = new ArrayList<>();
                for (int offset = 0; offset < 12; offset += 3) {
                    List<MemoryEntry> page = provider.query(Query.builder().scopes(Scope.PROJECT).order(order)
                            .limit(3).offset(offset).build());
                    assertThat(page.size()).as("%s page at %d", order, offset).isEqualTo(Math.min(3, Math.max(0, 8 - offset)));
                    page.forEach(entry -> paged.add(entry.key()));
                }
                List<String> all = provider.query(Query.builder().scopes(Scope.PROJECT).order(order).build()).stream()
                        .map(MemoryEntry::key).toList();
                assertThat(all).hasSize(8).doesNotContain("k1", "k5");
                assertThat(paged).as("%s", order).containsExactlyElementsOf(all);
            }
        }
    }

    @Test
    void a_page_after_a_run_of_unreadable_rows_is_full() throws Exception {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            for (int i = 0; i < 8; i++) {
                provider.set("k" + i, "value " + i, Scope.PROJECT);
            }
            damage(provider, "k0", "k1", "k2", "k3");
            assertThat(provider.query(Query.builder().scopes(Scope.PROJECT).limit(2).build()))
                    .extracting(MemoryEntry::key).containsExactly("k4", "k5");
            assertThat(provider.query(Query.builder().scopes(Scope.PROJECT).limit(2).offset(2).build()))
                    .extracting(MemoryEntry::key).containsExactly("k6", "k7");
            assertThat(provider.query(Query.builder().scopes(Scope.PROJECT).limit(2).offset(4).build())).isEmpty();
        }
    }

    /**
     * Breaks the stored metadata (a field twice, which the schema's {@code json_valid} check lets through) or tags (a
     * number, not text) of {@code keys} with plain JDBC, as a hand edit or another tool would.
     */
    static void damage(SqliteMemoryProvider provider, String... keys) throws Exception {
        try (Connection raw = Stores.jdbc(provider.databaseFile()); Statement statement = raw.createStatement()) {
            for (int i = 0; i < keys.length; i++) {
                statement.execute("UPDATE entries SET " + (i % 2 == 0 ? "metadata = '{\"a\":1,\"a\":2}'" : "tags = '[1]'")
                        + " WHERE key = '" + keys[i] + "'");
            }
        }
    }
}
