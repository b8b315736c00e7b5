package dev.forge.memory.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reciprocal rank fusion and score fusion (plain and clipped z-scores): scaling, threshold, limit, ties, weights. */
class SemanticScorerFuseTest {

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    private static Hit hit(String key, double score) {
        return new Hit(new MemoryEntry(key, "v", Scope.PROJECT, List.of(), Map.of(), T, T, 1), score);
    }

    private static SearchRequest request(int limit, double threshold) {
        return SearchRequest.builder("q").mode(SearchMode.HYBRID).limit(limit).threshold(threshold).build();
    }

    private static List<String> keys(List<Hit> hits) {
        return hits.stream().map(h -> h.entry().key()).toList();
    }

    @Test
    void first_in_both_rankings_scores_one_and_the_rest_less() {
        List<Hit> fused = SemanticScorer.fuse(request(10, 0), List.of(hit("a", 0.9), hit("b", 0.5)),
                List.of(hit("a", 0.8), hit("c", 0.7)));
        assertThat(keys(fused)).containsExactly("a", "b", "c");
        assertThat(fused.get(0).score()).isEqualTo(1.0);
        assertThat(fused.get(1).score()).isLessThan(1.0).isPositive();
        // b and c both hold rank 2 in one ranking: equal scores, ordered by key.
        assertThat(fused.get(1).score()).isEqualTo(fused.get(2).score());
    }

    @Test
    void the_default_rank_constant_is_60() {
        List<Hit> keyword = List.of(hit("a", 1), hit("b", 1), hit("c", 1));
        List<Hit> semantic = List.of(hit("c", 1), hit("d", 1));
        assertThat(SemanticScorer.fuse(request(10, 0), keyword, semantic))
                .isEqualTo(SemanticScorer.fuse(request(10, 0), keyword, semantic, SemanticScorer.RRF_K));
    }

    @Test
    void a_smaller_rank_constant_weighs_top_ranks_more() {
        // "top" is first in one ranking only; "both" is fourth in both rankings.
        List<Hit> keyword = List.of(hit("top", 1), hit("w", 1), hit("x", 1), hit("both", 1));
        List<Hit> semantic = List.of(hit("y", 1), hit("z", 1), hit("v", 1), hit("both", 1));
        assertThat(keys(SemanticScorer.fuse(request(10, 0), keyword, semantic, 60)).indexOf("both"))
                .isLessThan(keys(SemanticScorer.fuse(request(10, 0), keyword, semantic, 60)).indexOf("top"));
        assertThat(keys(SemanticScorer.fuse(request(10, 0), keyword, semantic, 1)).indexOf("top"))
                .isLessThan(keys(SemanticScorer.fuse(request(10, 0), keyword, semantic, 1)).indexOf("both"));
    }

    @Test
    void threshold_and_limit_apply_to_fused_scores() {
        List<Hit> keyword = List.of(hit("a", 1), hit("b", 1), hit("c", 1));
        List<Hit> semantic = List.of(hit("a", 1));
        assertThat(keys(SemanticScorer.fuse(request(2, 0), keyword, semantic))).containsExactly("a", "b");
        assertThat(keys(SemanticScorer.fuse(request(10, 0.99), keyword, semantic))).containsExactly("a");
    }

    @Test
    void a_rank_constant_below_one_is_refused() {
        assertThatThrownBy(() -> SemanticScorer.fuse(request(10, 0), List.of(), List.of(), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
    }

    @Test
    void equal_weights_are_plain_reciprocal_rank_fusion() {
        List<Hit> keyword = List.of(hit("a", 0.9), hit("b", 0.5));
        List<Hit> semantic = List.of(hit("b", 0.8), hit("c", 0.7), hit("a", 0.1));
        assertThat(SemanticScorer.fuse(request(10, 0), keyword, semantic, 20, 1.0))
                .isEqualTo(SemanticScorer.fuse(request(10, 0), keyword, semantic, 20));
    }

    @Test
    void a_lighter_keyword_ranking_cannot_push_semantic_hits_out_alone() {
        // "noise" is first by keyword only; "s1".."s3" are the semantic top three.
        List<Hit> keyword = List.of(hit("noise", 0.9));
        List<Hit> semantic = List.of(hit("s1", 0.9), hit("s2", 0.8), hit("s3", 0.7));
        assertThat(keys(SemanticScorer.fuse(request(3, 0), keyword, semantic, 10, 1.0))).contains("noise");
        assertThat(keys(SemanticScorer.fuse(request(3, 0), keyword, semantic, 10, 0.25)))
                .containsExactly("s1", "s2", "s3");
    }

    @Test
    void first_in_both_rankings_scores_one_whatever_the_weight() {
        List<Hit> fused = SemanticScorer.fuse(request(10, 0), List.of(hit("a", 0.9), hit("b", 0.2)),
                List.of(hit("a", 0.9), hit("c", 0.5)), 20, 0.25);
        assertThat(fused.get(0).entry().key()).isEqualTo("a");
        assertThat(fused.get(0).score()).isEqualTo(1.0);
        assertThat(fused).allSatisfy(h -> assertThat(h.score()).isPositive().isLessThanOrEqualTo(1.0));
    }

    @Test
    void a_keyword_weight_outside_zero_to_one_is_refused() {
        for (double weight : new double[] {0.0, -0.5, 1.5, Double.NaN}) {
            assertThatThrownBy(() -> SemanticScorer.fuse(request(10, 0), List.of(), List.of(), 60, weight))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keyword weight");
        }
    }

    @Test
    void score_fusion_lets_a_clear_match_of_one_ranking_beat_near_ties_of_the_other() {
        // The semantic scores barely differ; "k" is far above the other keyword hits.
        List<Hit> keyword = List.of(hit("k", 0.9), hit("a", 0.1), hit("b", 0.1), hit("c", 0.1));
        List<Hit> semantic = List.of(hit("a", 0.52), hit("b", 0.51), hit("k", 0.50), hit("c", 0.49));
        assertThat(keys(SemanticScorer.fuseScores(request(10, 0), keyword, semantic, 1.0)).get(0)).isEqualTo("k");
        // Rank fusion sees only the order: "a" (ranks 2 and 1) beats "k" (ranks 1 and 3).
        assertThat(keys(SemanticScorer.fuse(request(10, 0), keyword, semantic, 60, 1.0)).get(0)).isEqualTo("a");
    }

    @Test
    void score_fusion_with_equal_weights_is_symmetric_and_scores_lie_in_zero_to_one() {
        List<Hit> one = List.of(hit("a", 0.9), hit("b", 0.5), hit("c", 0.2));
        List<Hit> other = List.of(hit("c", 0.8), hit("d", 0.7), hit("a", 0.1));
        List<Hit> fused = SemanticScorer.fuseScores(request(10, 0), one, other, 1.0);
        assertThat(fused).isEqualTo(SemanticScorer.fuseScores(request(10, 0), other, one, 1.0));
        assertThat(keys(fused)).containsExactlyInAnyOrder("a", "b", "c", "d");
        assertThat(fused).allSatisfy(h -> assertThat(h.score()).isPositive().isLessThan(1.0));
    }

    @Test
    void score_fusion_gives_an_entry_missing_from_a_ranking_that_rankings_lowest_value() {
        // "only" is the best keyword hit and absent from the semantic ranking; "low" is last in both.
        List<Hit> keyword = List.of(hit("only", 0.9), hit("low", 0.1));
        List<Hit> semantic = List.of(hit("s", 0.9), hit("low", 0.1));
        List<Hit> fused = SemanticScorer.fuseScores(request(10, 0), keyword, semantic, 1.0);
        assertThat(keys(fused)).containsExactly("only", "s", "low");
        assertThat(fused.get(0).score()).isEqualTo(fused.get(1).score());
        assertThat(fused.get(0).score()).isEqualTo(0.5);
    }

    @Test
    void score_fusion_applies_threshold_limit_and_a_lighter_keyword_weight() {
        List<Hit> keyword = List.of(hit("noise", 0.9), hit("s1", 0.1), hit("s2", 0.1));
        List<Hit> semantic = List.of(hit("s1", 0.9), hit("s2", 0.8), hit("noise", 0.1));
        assertThat(keys(SemanticScorer.fuseScores(request(1, 0), keyword, semantic, 0.25))).containsExactly("s1");
        assertThat(SemanticScorer.fuseScores(request(10, 0.55), keyword, semantic, 1.0))
                .allSatisfy(h -> assertThat(h.score()).isGreaterThanOrEqualTo(0.55));
        assertThatThrownBy(() -> SemanticScorer.fuseScores(request(10, 0), keyword, semantic, 1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keyword weight");
    }

    @Test
    void fusing_by_method_runs_the_named_fusion() {
        List<Hit> keyword = List.of(hit("a", 0.9), hit("b", 0.5));
        List<Hit> semantic = List.of(hit("b", 0.8), hit("c", 0.7), hit("a", 0.1));
        assertThat(SemanticScorer.fuse(request(10, 0), keyword, semantic, FusionMethod.RRF, 20, 0.5))
                .isEqualTo(SemanticScorer.fuse(request(10, 0), keyword, semantic, 20, 0.5));
        assertThat(SemanticScorer.fuse(request(10, 0), keyword, semantic, FusionMethod.ZSCORE, 20, 0.5))
                .isEqualTo(SemanticScorer.fuseScores(request(10, 0), keyword, semantic, 0.5));
        assertThat(SemanticScorer.fuse(request(10, 0), keyword, semantic, FusionMethod.CLIPPED_ZSCORE, 20, 0.5))
                .isEqualTo(SemanticScorer.fuseClippedScores(request(10, 0), keyword, semantic, 0.5));
        assertThat(SemanticScorer.fuse(request(10, 0), keyword, semantic, FusionMethod.MAX_ZSCORE, 20, 0.5))
                .isEqualTo(SemanticScorer.fuseStrongerScores(request(10, 0), keyword, semantic, 0.5));
        assertThat(FusionMethod.parse(" ZScore ")).isEqualTo(FusionMethod.ZSCORE);
        assertThat(FusionMethod.parse("clipped_zscore")).isEqualTo(FusionMethod.CLIPPED_ZSCORE);
        assertThat(FusionMethod.parse("max_zscore")).isEqualTo(FusionMethod.MAX_ZSCORE);
        assertThatThrownBy(() -> FusionMethod.parse("combsum")).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'fusion' cannot be 'combsum': use max_zscore, clipped_zscore, zscore or rrf.");
    }

    @Test
    void the_default_fusion_is_the_stronger_clipped_z_score_with_equal_weights() {
        assertThat(FusionMethod.DEFAULT).isEqualTo(FusionMethod.MAX_ZSCORE);
        assertThat(FusionMethod.DEFAULT_KEYWORD_WEIGHT).isEqualTo(1.0);
    }

    @Test
    void the_stronger_evidence_of_one_ranking_outweighs_two_weak_agreeing_ones() {
        // "w" is a little above the mean of both rankings (a common word matched, a loose semantic match); "s" is a
        // clear semantic hit the keyword ranking lacks.
        List<Hit> keyword = List.of(hit("a", 1.0), hit("w", 0.9), hit("b", 0.5), hit("c", 0.1), hit("d", 0.1));
        List<Hit> semantic = List.of(hit("t", 0.9), hit("s", 0.85), hit("w", 0.7), hit("e", 0.5), hit("f", 0.45),
                hit("g", 0.4), hit("h", 0.4), hit("i", 0.4));
        List<Hit> stronger = SemanticScorer.fuseStrongerScores(request(10, 0), keyword, semantic, 1.0);
        assertThat(keys(stronger).subList(0, 4)).containsExactly("t", "s", "a", "w");
        assertThat(stronger.subList(0, 4)).allSatisfy(h -> assertThat(h.score()).isGreaterThan(0.5).isLessThan(1.0));
        assertThat(stronger.subList(4, stronger.size())).allSatisfy(h -> assertThat(h.score()).isPositive().isLessThan(0.5));
        assertThat(stronger).isEqualTo(SemanticScorer.fuseStrongerScores(request(10, 0), semantic, keyword, 1.0));
        // The mean of the clipped z-scores adds the two weak ones up and puts "w" over "s".
        List<String> mean = keys(SemanticScorer.fuseClippedScores(request(10, 0), keyword, semantic, 1.0));
        assertThat(mean.indexOf("w")).isLessThan(mean.indexOf("s"));
    }

    @Test
    void stronger_score_fusion_applies_threshold_limit_and_weight() {
        List<Hit> keyword = List.of(hit("k", 0.9), hit("x", 0.2), hit("y", 0.1));
        List<Hit> semantic = List.of(hit("s", 0.9), hit("x", 0.85), hit("y", 0.8), hit("k", 0.1));
        assertThat(keys(SemanticScorer.fuseStrongerScores(request(1, 0), keyword, semantic, 1.0))).containsExactly("k");
        // weighted by a quarter, the keyword ranking's top hit no longer outweighs the semantic one
        assertThat(keys(SemanticScorer.fuseStrongerScores(request(1, 0), keyword, semantic, 0.25))).containsExactly("s");
        assertThat(SemanticScorer.fuseStrongerScores(request(10, 0.55), keyword, semantic, 1.0)).isNotEmpty()
                .allSatisfy(h -> assertThat(h.score()).isGreaterThanOrEqualTo(0.55));
        assertThatThrownBy(() -> SemanticScorer.fuseStrongerScores(request(10, 0), keyword, semantic, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keyword weight");
    }

    @Test
    void clipped_fusion_counts_a_keyword_score_below_its_rankings_mean_as_no_evidence() {
        // "w" matched a common word: present in the keyword ranking but below its mean. "s" is the semantic top hit
        // and absent from the keyword ranking.
        List<Hit> keyword = List.of(hit("k", 0.9), hit("k2", 0.85), hit("w", 0.3), hit("z", 0.1));
        List<Hit> semantic = List.of(hit("s", 0.80), hit("w", 0.78), hit("f1", 0.40), hit("f2", 0.38));
        List<String> clipped = keys(SemanticScorer.fuseClippedScores(request(10, 0), keyword, semantic, 1.0));
        assertThat(clipped.indexOf("s")).isLessThan(clipped.indexOf("w"));
        // Plain z-scores give "s" the keyword ranking's lowest value, under the weak match of "w".
        List<String> plain = keys(SemanticScorer.fuseScores(request(10, 0), keyword, semantic, 1.0));
        assertThat(plain.indexOf("w")).isLessThan(plain.indexOf("s"));
    }

    @Test
    void clipped_fusion_scores_evidence_above_one_half_and_orders_the_rest_by_plain_z_scores_below_it() {
        List<Hit> keyword = List.of(hit("a", 0.9), hit("b", 0.5), hit("c", 0.2), hit("d", 0.1));
        List<Hit> semantic = List.of(hit("e", 0.8), hit("a", 0.7), hit("c", 0.3), hit("d", 0.2));
        List<Hit> fused = SemanticScorer.fuseClippedScores(request(10, 0), keyword, semantic, 1.0);
        assertThat(keys(fused)).containsExactly("a", "e", "b", "c", "d");
        assertThat(fused.subList(0, 3)).allSatisfy(h -> assertThat(h.score()).isGreaterThan(0.5).isLessThan(1.0));
        // "c" and "d" are below the mean in both rankings: no evidence, ordered as plain z-score fusion orders them.
        assertThat(fused.subList(3, 5)).allSatisfy(h -> assertThat(h.score()).isPositive().isLessThan(0.5));
        assertThat(fused).isEqualTo(SemanticScorer.fuseClippedScores(request(10, 0), semantic, keyword, 1.0));
    }

    @Test
    void clipped_fusion_applies_threshold_limit_and_weight() {
        List<Hit> keyword = List.of(hit("noise", 0.9), hit("s1", 0.1), hit("s2", 0.1));
        List<Hit> semantic = List.of(hit("s1", 0.9), hit("s2", 0.8), hit("noise", 0.1));
        assertThat(keys(SemanticScorer.fuseClippedScores(request(1, 0), keyword, semantic, 0.25))).containsExactly("s1");
        assertThat(SemanticScorer.fuseClippedScores(request(10, 0.55), keyword, semantic, 1.0)).isNotEmpty()
                .allSatisfy(h -> assertThat(h.score()).isGreaterThanOrEqualTo(0.55));
        assertThatThrownBy(() -> SemanticScorer.fuseClippedScores(request(10, 0), keyword, semantic, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keyword weight");
    }
}
