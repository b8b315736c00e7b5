package dev.forge.memory.vector;

import dev.forge.memory.support.SearchText;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.support.SemanticScorer;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.EmbeddingModels;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Search of the vector provider beyond the conformance suite: filters that must not starve kNN, the exact and the
 * HNSW path, threshold semantics of each mode, filters in every mode.
 */
class VectorSearchTest {

    @TempDir
    Path base;

    private final List<MemoryProvider> opened = new ArrayList<>();

    @AfterEach
    void closeAll() {
        opened.forEach(MemoryProvider::close);
    }

    private MemoryProvider open(String project, Map<String, Object> extra) {
        MemoryProvider provider = VectorStores.open(base, project, extra);
        opened.add(provider);
        return provider;
    }

    private static List<String> keys(List<Hit> hits) {
        return hits.stream().map(h -> h.entry().key()).toList();
    }

    private static SearchRequest.Builder request(String text, SearchMode mode) {
        return SearchRequest.builder(text).mode(mode);
    }

    /**
     * 500 close neighbours in another project, 5 entries in this one: a top-k taken before filtering would hold only
     * the other project's. Both paths (one provider of each on the same index) must return this project's 5.
     */
    @Test
    void a_filter_that_keeps_few_entries_never_starves_semantic_search_on_either_path() {
        MemoryProvider other = open("other", Map.of("exact_limit", 0));
        VectorStores.writeInParallel(500, i -> other.set("theirs-" + i, "deploy the billing service to production, run " + i, Scope.PROJECT));
        other.set("tagged-0", "roses in the garden", Scope.PROJECT, List.of("rare"), Map.of());
        other.set("tagged-1", "roses by the fence", Scope.PROJECT, List.of("rare"), Map.of());
        other.set("tagged-2", "the billing service", Scope.PROJECT, List.of("rare"), Map.of());
        MemoryProvider hnsw = open("mine", Map.of("exact_limit", 0));
        MemoryProvider exact = open("mine", Map.of("exact_limit", 10_000));
        for (int i = 0; i < 5; i++) {
            hnsw.set("mine-" + i, "notes on the garden, the roses and the deploy " + i, Scope.PROJECT);
        }
        String text = "deploy the billing service to production";
        for (MemoryProvider mine : List.of(hnsw, exact)) {
            assertThat(keys(mine.search(request(text, SearchMode.SEMANTIC).limit(5).build())))
                    .containsExactlyInAnyOrder("mine-0", "mine-1", "mine-2", "mine-3", "mine-4");
            assertThat(keys(mine.search(request(text, SearchMode.HYBRID).limit(5).build())))
                    .containsExactlyInAnyOrder("mine-0", "mine-1", "mine-2", "mine-3", "mine-4");
        }
        // a tag filter inside the other project, 3 tagged among 503, through the graph (503 > exact_limit 0)
        assertThat(keys(other.search(request(text, SearchMode.SEMANTIC).tag("rare").limit(3).build())))
                .containsExactlyInAnyOrder("tagged-0", "tagged-1", "tagged-2");
        // and without a filter the other project's 500 are found through the graph, best first
        List<Hit> theirs = other.search(request(text + ", run 7", SearchMode.SEMANTIC).limit(3).build());
        assertThat(theirs).hasSize(3);
        assertThat(theirs.get(0).entry().key()).isEqualTo("theirs-7");
    }

    @Test
    void the_exact_and_the_hnsw_path_rank_a_small_store_alike_with_the_model_cosine_as_score() {
        MemoryProvider exact = open("p", Map.of());
        String[] texts = {"the cache expires entries after ten minutes", "deploy the service on fridays",
                "roses need water every morning", "the printer downstairs is jammed", "quarterly revenue grew",
                "cache invalidation is hard", "lunch moved to thursday", "the service cache is warm"};
        for (int i = 0; i < texts.length; i++) {
            exact.set("k" + i, texts[i], Scope.PROJECT);
        }
        SearchRequest request = request("how long does the cache keep entries", SearchMode.SEMANTIC).limit(4).build();
        List<Hit> exactHits = exact.search(request);
        exact.close();
        opened.remove(exact);
        MemoryProvider hnsw = open("p", Map.of("exact_limit", 0));
        List<Hit> hnswHits = hnsw.search(request);
        assertThat(keys(hnswHits)).isEqualTo(keys(exactHits));
        EmbeddingModel model = EmbeddingModels.load().open(ProviderConfig.of(Map.of("model", "hashing", "dimension", 384)));
        float[] query = model.embed(request.text());
        for (int i = 0; i < exactHits.size(); i++) {
            Hit hit = exactHits.get(i);
            double cosine = SemanticScorer.dot(query, model.embed(SearchText.DEFAULT.text(hit.entry())));
            assertThat(hit.score()).as("exact score of %s", hit.entry().key()).isCloseTo(cosine, within(1e-5));
            assertThat(hnswHits.get(i).score()).as("hnsw score of %s", hit.entry().key()).isCloseTo(cosine, within(1e-5));
        }
    }

    @ParameterizedTest(name = "exact_limit = {0}")
    @ValueSource(ints = {0, 10_000})
    void semantic_threshold_applies_to_the_cosine(int exactLimit) {
        MemoryProvider provider = open("p", Map.of("exact_limit", exactLimit));
        provider.set("same", "deploy the service to production", Scope.PROJECT);
        provider.set("close", "deploy the service to staging", Scope.PROJECT);
        provider.set("far", "roses need water every morning", Scope.PROJECT);
        List<Hit> all = provider.search(request("same deploy the service to production", SearchMode.SEMANTIC).limit(10).build());
        assertThat(all.get(0).entry().key()).isEqualTo("same");
        assertThat(all.get(0).score()).isGreaterThan(0.9);
        double between = (all.get(0).score() + all.get(1).score()) / 2;
        assertThat(keys(provider.search(request("same deploy the service to production", SearchMode.SEMANTIC)
                .threshold(between).build()))).containsExactly("same");
        assertThat(provider.search(request("same deploy the service to production", SearchMode.SEMANTIC)
                .threshold(all.get(0).score()).build())).extracting(Hit::score).containsExactly(all.get(0).score());
    }

    @Test
    void keyword_scores_are_the_share_of_the_query_weight_matched() {
        MemoryProvider provider = open("p", Map.of());
        provider.set("both", "zephyr quokka", Scope.PROJECT);
        provider.set("one", "zephyr alone here", Scope.PROJECT);
        provider.set("none", "nothing relevant", Scope.PROJECT);
        List<Hit> hits = provider.search(request("zephyr quokka", SearchMode.KEYWORD).build());
        assertThat(keys(hits)).containsExactly("both", "one");
        assertThat(hits).allSatisfy(h -> assertThat(h.score()).isGreaterThan(0).isLessThan(1));
        // the score is the BM25 score over the sum of the terms' idf: two equally rare terms matched score more than
        // twice one of them (the shorter document saturates a little faster)
        assertThat(hits.get(0).score()).isGreaterThan(2 * hits.get(1).score());
        double between = (hits.get(0).score() + hits.get(1).score()) / 2;
        assertThat(keys(provider.search(request("zephyr quokka", SearchMode.KEYWORD).threshold(between).build()))).containsExactly("both");
        // stemming: a plural and a verb form find their stem
        provider.set("deployment", "we deployed the new services", Scope.PROJECT);
        assertThat(keys(provider.search(request("deploy service", SearchMode.KEYWORD).build()))).containsExactly("deployment");
    }

    @Test
    void rrf_hybrid_scores_first_place_in_both_rankings_as_one_and_threshold_applies_to_the_fused_score() {
        MemoryProvider provider = open("p", Map.of("fusion", "rrf", "rrf_k", 10));
        provider.set("target", "zanzibar rollout uses blue green switching", Scope.PROJECT);
        provider.set("other", "blue paint for the fence", Scope.PROJECT);
        provider.set("far", "quarterly revenue grew", Scope.PROJECT);
        List<Hit> hits = provider.search(request("zanzibar rollout blue green switching", SearchMode.HYBRID).build());
        assertThat(hits.get(0).entry().key()).isEqualTo("target");
        assertThat(hits.get(0).score()).isEqualTo(1.0);
        assertThat(hits.get(1).score()).isLessThan(1.0);
        assertThat(keys(provider.search(request("zanzibar rollout blue green switching", SearchMode.HYBRID)
                .threshold(hits.get(1).score() + 1e-9).build()))).containsExactly("target");
    }

    @Test
    void default_hybrid_fuses_scores_and_threshold_applies_to_the_fused_score() {
        MemoryProvider provider = open("p", Map.of());
        provider.set("target", "zanzibar rollout uses blue green switching", Scope.PROJECT);
        provider.set("other", "blue paint for the fence", Scope.PROJECT);
        provider.set("far", "quarterly revenue grew", Scope.PROJECT);
        List<Hit> hits = provider.search(request("zanzibar rollout blue green switching", SearchMode.HYBRID).build());
        assertThat(hits.get(0).entry().key()).isEqualTo("target");
        assertThat(hits).allSatisfy(h -> assertThat(h.score()).isPositive().isLessThan(1.0));
        assertThat(hits.get(1).score()).isLessThan(hits.get(0).score());
        assertThat(keys(provider.search(request("zanzibar rollout blue green switching", SearchMode.HYBRID)
                .threshold(hits.get(1).score() + 1e-9).build()))).containsExactly("target");
    }

    @ParameterizedTest
    @EnumSource(SearchMode.class)
    void tag_metadata_time_and_scope_filters_hold_in_every_mode(SearchMode mode) {
        MemoryProvider provider = open("p", Map.of());
        provider.set("a", "walrus facts and walrus habits", Scope.PROJECT, List.of("zoo", "cold"), Map.of("level", 2, "team", "x"));
        provider.set("b", "walrus facts and walrus habits", Scope.PROJECT, List.of("zoo"), Map.of("level", 2.0, "team", "y"));
        provider.set("c", "walrus facts and walrus habits", Scope.PROJECT, List.of("cold"), Map.of("level", 3, "nested", Map.of("k", List.of(1, "x"))));
        provider.set("d", "walrus facts and walrus habits", Scope.GLOBAL, List.of("zoo", "cold"), Map.of("level", 2));
        SearchRequest.Builder base = request("walrus facts", mode).limit(10);
        assertThat(keys(provider.search(request("walrus facts", mode).tag("zoo").build()))).containsExactlyInAnyOrder("a", "b", "d");
        assertThat(keys(provider.search(request("walrus facts", mode).tag("zoo").tag("cold").build()))).containsExactlyInAnyOrder("a", "d");
        assertThat(keys(provider.search(request("walrus facts", mode).metadata("level", 2L).build()))).containsExactlyInAnyOrder("a", "b", "d");
        assertThat(keys(provider.search(request("walrus facts", mode).metadata("level", 2.0).scopes(Scope.PROJECT).build())))
                .containsExactlyInAnyOrder("a", "b");
        assertThat(keys(provider.search(request("walrus facts", mode).metadata("level", "2").build()))).isEmpty();
        assertThat(keys(provider.search(request("walrus facts", mode).metadata("nested", Map.of("k", List.of(1.0, "x"))).build())))
                .containsExactly("c");
        assertThat(keys(provider.search(request("walrus facts", mode).metadata("nested", Map.of("k", List.of(1))).build()))).isEmpty();
        assertThat(keys(provider.search(base.scopes(Scope.GLOBAL).build()))).containsExactly("d");
        java.time.Instant cut = provider.get("d", Scope.GLOBAL).orElseThrow().updatedAt();
        assertThat(keys(provider.search(request("walrus facts", mode).updatedAfter(cut.minusSeconds(3600)).build())))
                .containsExactlyInAnyOrder("a", "b", "c", "d");
        assertThat(keys(provider.search(request("walrus facts", mode).updatedAfter(cut.plusSeconds(3600)).build()))).isEmpty();
    }

    @Test
    void a_text_without_words_finds_nothing_in_any_mode_and_entries_without_words_are_kept() {
        MemoryProvider provider = open("p", Map.of());
        provider.set("...", "", Scope.PROJECT);
        provider.set("words", "some words", Scope.PROJECT);
        for (SearchMode mode : SearchMode.values()) {
            assertThat(provider.search(request("?!", mode).build())).as("%s", mode).isEmpty();
        }
        assertThat(provider.get("...", Scope.PROJECT)).isPresent();
        assertThat(keys(provider.search(request("some words", SearchMode.SEMANTIC).build()))).containsExactly("words");
    }
}
