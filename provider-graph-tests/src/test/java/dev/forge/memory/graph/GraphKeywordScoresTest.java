package dev.forge.memory.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;

import dev.forge.memory.Hit;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.graph.internal.GraphStore;

/**
 * Keyword scores are Lucene's BM25 score through the full-text index divided by the best score the query could reach
 * (the sum of its terms' idf), as sqlite and vector report theirs: linear in Lucene's score, in (0, 1], and lower for a
 * hit that matches a smaller share of the query. Words are made unique per test: the index spans the whole database.
 */
class GraphKeywordScoresTest {

    @TempDir
    Path directory;

    private MemoryProvider provider;
    private Driver driver;
    private final String a = word();
    private final String b = word();
    private final String c = word();

    private static String word() {
        return "w" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    @BeforeEach
    void open() {
        provider = GraphTestStores.open(directory, "scores-" + UUID.randomUUID(), Map.of());
        driver = GraphTestStores.driver();
        provider.set("both", a + " " + b + " and some other words here", Scope.PROJECT);
        provider.set("first", a + " only, with a few more words than the other", Scope.PROJECT);
        provider.set("repeated", a + " " + a + " " + a + " " + b, Scope.PROJECT);
        provider.set("third", c + " alone", Scope.PROJECT);
    }

    @AfterEach
    void close() {
        provider.close();
        driver.close();
    }

    /** Lucene's own score of each of this store's nodes for {@code query} (the terms quoted, any of them). */
    private Map<String, Double> luceneScores(List<String> terms) {
        String query = String.join(" OR ", terms.stream().map(t -> "\"" + t + "\"").toList());
        Map<String, Double> scores = new HashMap<>();
        try (Session session = driver.session()) {
            session.run("CALL db.index.fulltext.queryNodes($index, $query) YIELD node, score"
                    + " WHERE node.key IN ['both', 'first', 'repeated', 'third'] AND node.value CONTAINS $word"
                    + " RETURN node.key AS key, score", Map.of("index", GraphStore.SEARCH_INDEX, "query", query,
                    "word", terms.get(0))).forEachRemaining(r -> scores.put(r.get("key").asString(), r.get("score").asDouble()));
        }
        return scores;
    }

    @Test
    void scores_are_linear_in_lucenes_score() {
        List<Hit> hits = provider.search(SearchRequest.keyword(a + " " + b));
        Map<String, Double> lucene = luceneScores(List.of(a, b));
        assertThat(hits).extracting(h -> h.entry().key()).containsExactlyInAnyOrder("both", "first", "repeated");
        double factor = hits.get(0).score() / lucene.get(hits.get(0).entry().key());
        for (Hit hit : hits) {
            assertThat(hit.score()).as(hit.entry().key()).isCloseTo(factor * lucene.get(hit.entry().key()),
                    org.assertj.core.data.Offset.offset(1e-6));
            assertThat(hit.score()).isGreaterThan(0).isLessThanOrEqualTo(1);
        }
    }

    @Test
    void a_hit_matching_part_of_the_query_scores_below_one_matching_all_of_it() {
        double full = provider.search(SearchRequest.keyword(c)).get(0).score();
        List<Hit> partial = provider.search(SearchRequest.keyword(c + " " + word()));
        assertThat(partial).extracting(h -> h.entry().key()).containsExactly("third");
        // the missing word is as rare as a word can be: it weighs at least as much as the one found
        assertThat(partial.get(0).score()).isLessThan(full * 0.6);
        assertThat(full).isGreaterThan(0.2).isLessThanOrEqualTo(1);
    }

    @Test
    void the_threshold_applies_to_the_linear_score() {
        List<Hit> all = provider.search(SearchRequest.keyword(a + " " + b));
        double cut = (all.get(0).score() + all.get(all.size() - 1).score()) / 2;
        List<Hit> above = provider.search(SearchRequest.builder(a + " " + b).threshold(cut).build());
        assertThat(above).isNotEmpty().allSatisfy(h -> assertThat(h.score()).isGreaterThanOrEqualTo(cut));
        assertThat(above.size()).isLessThan(all.size());
    }
}
