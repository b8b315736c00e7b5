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

/** FTS5 search: bm25 scores divided by the best the query could reach, snippets, and user text that is never FTS syntax. */
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
    void scores_are_bm25_over_the_best_score_the_query_could_reach_in_bm25_order() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("full", "orbit lander thruster checked before launch", Scope.PROJECT);
            provider.set("two", "orbit lander orbit lander telemetry archived", Scope.PROJECT);
            provider.set("one", "orbit insertion burn planned next month", Scope.PROJECT);
            provider.set("other", "quarterly budget review notes for finance", Scope.PROJECT);
            List<Hit> hits = provider.search(SearchRequest.keyword("orbit lander thruster"));

            List<Double> bm25 = bm25(provider, Statements.match(List.of("orbit", "lander", "thruster")));
            assertThat(bm25).hasSize(3).allSatisfy(value -> assertThat(value).isNegative());
            assertThat(hits).extracting(h -> h.entry().key()).containsExactly("full", "two", "one");
            // 4 entries; orbit is in 3 of them, lander in 2, thruster in 1
            double best = best(4, 3, 2, 1);
            for (int i = 0; i < hits.size(); i++) {
                assertThat(hits.get(i).score()).isCloseTo(-bm25.get(i) / best, within(1e-12));
                assertThat(hits.get(i).score()).isGreaterThan(0.0).isLessThanOrEqualTo(1.0);
            }
        }
    }

    @Test
    void a_rare_term_repeated_in_a_short_entry_scores_near_the_top_of_the_scale() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("best", "thruster thruster thruster thruster thruster thruster thruster thruster", Scope.PROJECT);
            provider.set("once", "a thruster was checked before the launch of the second stage", Scope.PROJECT);
            for (int i = 0; i < 6; i++) {
                provider.set("other-" + i, "quarterly budget review notes for finance, meeting " + i, Scope.PROJECT);
            }
            List<Hit> hits = provider.search(SearchRequest.keyword("thruster"));
            assertThat(hits).extracting(h -> h.entry().key()).containsExactly("best", "once");
            // linear in bm25: the top hit is not squeezed towards the others, as -bm25 / (1 - bm25) would
            assertThat(hits.get(0).score()).isGreaterThan(0.8).isLessThanOrEqualTo(1.0);
            assertThat(hits.get(0).score() / hits.get(1).score()).isGreaterThan(1.5);
        }
    }

    @Test
    void document_frequencies_count_only_the_columns_searched() {
        try (SqliteMemoryProvider provider = Stores.open(directory, Map.of("search_fields", List.of("tags")))) {
            for (int i = 0; i < 5; i++) {
                provider.set("orbit-" + i, "telemetry archived for pass " + i, Scope.PROJECT);
            }
            provider.set("burn", "the orbit insertion burn is planned", Scope.PROJECT);
            List<Hit> hits = provider.search(SearchRequest.keyword("orbit"));
            assertThat(hits).extracting(h -> h.entry().key()).containsExactly("burn");
            List<Double> bm25 = bm25(provider, "{value search_text tags} : (" + Statements.match(List.of("orbit")) + ")");
            // 6 entries; orbit is in the keys of 5, but in the searched columns of 1
            assertThat(hits.get(0).score()).isCloseTo(-bm25.get(0) / best(6, 1), within(1e-12));
        }
    }

    @Test
    void the_threshold_is_a_share_of_the_best_score_the_query_could_reach() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("full", "orbit lander thruster checked before launch", Scope.PROJECT);
            provider.set("one", "orbit insertion burn planned next month", Scope.PROJECT);
            provider.set("other", "quarterly budget review notes for finance", Scope.PROJECT);
            List<Hit> all = provider.search(SearchRequest.keyword("lander thruster"));
            assertThat(all).extracting(h -> h.entry().key()).containsExactly("full");
            double score = all.get(0).score();
            assertThat(provider.search(SearchRequest.builder("lander thruster").threshold(score).build())).hasSize(1);
            assertThat(provider.search(SearchRequest.builder("lander thruster").threshold(Math.nextUp(score)).build())).isEmpty();
        }
    }

    @Test
    void the_score_function_is_linear_in_bm25_within_the_unit_interval() {
        assertThat(SqliteStore.score(-1.1, 2.2)).isEqualTo(0.5);
        assertThat(SqliteStore.score(-2.2, 2.2)).isEqualTo(1.0);
        assertThat(SqliteStore.score(-3.0, 2.2)).as("past the bound (a racing write): still at most 1").isEqualTo(1.0);
        assertThat(SqliteStore.score(-1e-6, 2.2)).isGreaterThan(0.0);
        assertThat(SqliteStore.score(0.0, 2.2)).as("never 0: a Hit's score is in (0, 1]").isGreaterThan(0.0);
        assertThat(SqliteStore.score(-2.0, 2.2)).isGreaterThan(SqliteStore.score(-1.9, 2.2));
    }

    /** bm25() of the rows {@code match} finds, best first, straight from SQLite. */
    private static List<Double> bm25(SqliteMemoryProvider provider, String match) {
        return provider.database().read("read bm25", connection -> {
            List<Double> values = new ArrayList<>();
            try (PreparedStatement statement = connection.prepareStatement("SELECT bm25(entries_fts) FROM entries_fts"
                    + " WHERE entries_fts MATCH ? ORDER BY bm25(entries_fts)")) {
                statement.setString(1, match);
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        values.add(rows.getDouble(1));
                    }
                }
            }
            return values;
        });
    }

    /**
     * The supremum of FTS5's bm25 for terms found in {@code frequencies} of {@code rows} rows: each term's idf (FTS5's,
     * at least 1e-6) times k1 + 1, the limit of its term-frequency factor.
     */
    static double best(int rows, int... frequencies) {
        double sum = 0;
        for (int n : frequencies) {
            double idf = Math.log((rows - n + 0.5) / (n + 0.5));
            sum += idf > 0 ? idf : 1e-6;
        }
        return 2.2 * sum;
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
