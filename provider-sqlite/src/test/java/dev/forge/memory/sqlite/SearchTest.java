package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.forge.memory.Hit;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.sqlite.internal.Statements;
import dev.forge.memory.sqlite.internal.SqliteStore;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** FTS5 search: bm25 scores normalised into (0, 1], snippets, and user text that is never FTS syntax. */
class SearchTest {

    @TempDir
    Path directory;

    @Test
    void question_words_are_left_out_and_words_match_by_their_stem() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("D1:1", "Caroline: I researched adoption agencies last week.", Scope.PROJECT);
            provider.set("D1:2", "Melanie: What did you do? What did he say?", Scope.PROJECT);
            provider.set("D1:3", "Melanie: Nice weather today.", Scope.PROJECT);
            assertThat(provider.search(SearchRequest.keyword("What did Caroline research?")))
                    .extracting(h -> h.entry().key()).containsExactly("D1:1");
            assertThat(provider.search(SearchRequest.keyword("what did")))
                    .as("a query of stop words only keeps them").extracting(h -> h.entry().key()).containsExactly("D1:2");
        }
    }

    @Test
    void scores_are_minus_bm25_over_one_minus_bm25_in_bm25_order() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("full", "orbit lander thruster checked before launch", Scope.PROJECT);
            provider.set("two", "orbit lander orbit lander telemetry archived", Scope.PROJECT);
            provider.set("one", "orbit insertion burn planned next month", Scope.PROJECT);
            provider.set("other", "quarterly budget review notes for finance", Scope.PROJECT);
            List<Hit> hits = provider.search(SearchRequest.keyword("orbit lander thruster"));

            // bm25() of the same rows, straight from SQLite
            List<Double> bm25 = provider.database().read("read bm25", connection -> {
                List<Double> values = new ArrayList<>();
                try (PreparedStatement statement = connection.prepareStatement("SELECT bm25(entries_fts) FROM entries_fts"
                        + " WHERE entries_fts MATCH ? ORDER BY bm25(entries_fts)")) {
                    statement.setString(1, Statements.match(List.of("orbit", "lander", "thruster")));
                    try (ResultSet rows = statement.executeQuery()) {
                        while (rows.next()) {
                            values.add(rows.getDouble(1));
                        }
                    }
                }
                return values;
            });
            assertThat(bm25).hasSize(3).allSatisfy(value -> assertThat(value).isNegative());
            assertThat(hits).extracting(h -> h.entry().key()).containsExactly("full", "two", "one");
            for (int i = 0; i < hits.size(); i++) {
                double b = bm25.get(i);
                assertThat(hits.get(i).score()).isCloseTo(-b / (1 - b), within(1e-12));
                assertThat(hits.get(i).score()).isGreaterThan(0.0).isLessThan(1.0);
            }
        }
    }

    @Test
    void the_score_function_maps_bm25_onto_the_unit_interval_keeping_its_order() {
        assertThat(SqliteStore.score(-1.0)).isEqualTo(0.5);
        assertThat(SqliteStore.score(-3.0)).isEqualTo(0.75);
        assertThat(SqliteStore.score(-1e-6)).isGreaterThan(0.0);
        assertThat(SqliteStore.score(0.0)).as("never 0: a Hit's score is in (0, 1]").isGreaterThan(0.0);
        assertThat(SqliteStore.score(-1e300)).isLessThanOrEqualTo(1.0);
        assertThat(SqliteStore.score(-2.0)).isGreaterThan(SqliteStore.score(-1.9));
    }

    @Test
    void a_term_in_every_entry_still_scores_above_zero() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            for (int i = 0; i < 12; i++) {
                provider.set("doc-" + i, "shared harbour word", Scope.PROJECT);
            }
            assertThat(provider.search(SearchRequest.builder("harbour").limit(50).build())).hasSize(12)
                    .allSatisfy(hit -> assertThat(hit.score()).isGreaterThan(0.0));
        }
    }

    @Test
    void snippets_mark_the_matched_terms_in_the_text_around_them() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("decision:db", "After a long evaluation of several engines the team chose PostgreSQL for the billing "
                    + "service because of its mature replication and tooling support across regions.", Scope.PROJECT);
            provider.set("other", "Nothing relevant here.", Scope.PROJECT);
            List<SqliteMemoryProvider.SnippetHit> hits = provider.searchWithSnippets(SearchRequest.keyword("billing replication"));
            assertThat(hits).hasSize(1);
            String snippet = hits.get(0).snippet();
            assertThat(snippet).contains("**billing**").contains("**replication**").contains("…");
            assertThat(snippet.split("\\s+")).hasSizeLessThanOrEqualTo(16);
            assertThat(hits.get(0).hit()).isEqualTo(provider.search(SearchRequest.keyword("billing replication")).get(0));
        }
    }

    @Test
    void a_tag_or_key_match_gives_a_snippet_too() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("cluster-notes", "Node pools and autoscaling.", Scope.PROJECT, List.of("kubernetes"), Map.of());
            assertThat(provider.searchWithSnippets(SearchRequest.keyword("kubernetes")).get(0).snippet()).contains("**kubernetes**");
            assertThat(provider.searchWithSnippets(SearchRequest.keyword("cluster")).get(0).snippet()).contains("**cluster**");
        }
    }

    @Test
    void fts_syntax_in_the_query_is_quoted_away() {
        assertThat(Statements.match(List.of("near", "parens", "or"))).isEqualTo("\"near\" OR \"parens\" OR \"or\"");
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("target", "The quoted parens example", Scope.PROJECT);
            for (String text : List.of("NEAR(parens, 2)", "parens*", "^parens", "value:parens", "\"parens", "parens AND NOT x",
                    "{value}: parens", "parens OR")) {
                assertThat(provider.search(SearchRequest.keyword(text))).as(text).extracting(h -> h.entry().key()).contains("target");
            }
        }
    }

    @Test
    void semantic_modes_are_refused_and_snippets_too() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            assertThatThrownBy(() -> provider.searchWithSnippets(SearchRequest.builder("x").mode(SearchMode.SEMANTIC).build()))
                    .isInstanceOf(UnsupportedCapabilityException.class).hasMessageContaining("sqlite");
            assertThatThrownBy(() -> provider.search(SearchRequest.builder("x").mode(SearchMode.HYBRID).build()))
                    .isInstanceOf(UnsupportedCapabilityException.class);
        }
    }

    @Test
    void a_limit_keeps_every_hit_tied_with_the_last_one_in_the_cut_and_orders_ties_by_key() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            for (String key : List.of("tie-5", "tie-3", "tie-1", "tie-4", "tie-2")) {
                provider.set(key, "identical zephyr text", Scope.PROJECT);
            }
            provider.set("tie-0", "identical zephyr text", Scope.GLOBAL);
            assertThat(provider.search(SearchRequest.builder("zephyr").limit(3).build())).extracting(h -> h.entry().key())
                    .containsExactly("tie-0", "tie-1", "tie-2");
        }
    }

    @Test
    void ties_running_past_the_rows_a_limited_search_reads_are_still_cut_by_key() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            for (int i = 99; i >= 0; i--) {
                provider.set(String.format("k%03d", i), "identical zephyr text", Scope.PROJECT);
            }
            for (int limit : new int[] {1, 5, 90, 100}) {
                List<String> expected = new ArrayList<>();
                for (int i = 0; i < limit; i++) {
                    expected.add(String.format("k%03d", i));
                }
                assertThat(provider.search(SearchRequest.builder("zephyr").limit(limit).build())).as("limit %d", limit)
                        .extracting(h -> h.entry().key()).containsExactlyElementsOf(expected);
                assertThat(provider.search(SearchRequest.builder("zephyr").limit(limit).metadata("n", 1L).build()))
                        .as("a filter the SQL does not apply whole").isEmpty();
            }
        }
    }

    @Test
    void ties_in_one_file_go_by_key_then_session_project_global_at_any_cut() {
        try (SqliteMemoryProvider provider = Stores.open(directory, Map.of("global_path", ".forge/memory.db"))) {
            for (Scope scope : List.of(Scope.GLOBAL, Scope.PROJECT, Scope.SESSION)) {
                provider.set("same", "identical zephyr text", scope);
            }
            provider.set("zzz", "identical zephyr text", Scope.SESSION);
            provider.set("aaa", "identical zephyr text", Scope.GLOBAL);
            List<String> expected = List.of("aaa/global", "same/session", "same/project", "same/global", "zzz/session");
            for (int limit = 1; limit <= expected.size(); limit++) {
                assertThat(provider.search(SearchRequest.builder("zephyr").limit(limit).build()))
                        .extracting(h -> h.entry().key() + "/" + h.entry().scope().id()).as("limit %d", limit)
                        .containsExactlyElementsOf(expected.subList(0, limit));
            }
        }
    }
}
