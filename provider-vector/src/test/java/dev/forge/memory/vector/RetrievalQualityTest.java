package dev.forge.memory.vector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retrieval quality on a small labelled set written for this project: four conversations of 25 short chat turns,
 * one entry per turn, and 42 questions that paraphrase what was said, each with the keys of the turns that answer
 * it. Measures turn-level recall@5 and recall@10 of every search mode with the default configuration (no model named,
 * so e5-small; fusion by the stronger clipped z-score) and checks the rule of issue 26: HYBRID is at least as good as
 * the better single mode in recall@10, the measure the long-conversation benchmarks report (Java 17, x86-64):
 *
 * <pre>
 *   mode      recall@5  recall@10
 *   KEYWORD      0.500      0.512
 *   SEMANTIC     0.881      0.917
 *   HYBRID       0.881      0.917
 * </pre>
 *
 * The questions paraphrase their answers by design, so most keyword hits are names and common words. Adding the two
 * rankings' clipped z-scores (the default before) lost "Which workflow scheduler runs the pipeline?" (0.893): turns
 * holding "pipeline" or "schedule", a little above the mean of both rankings, outweighed the answer that only the
 * semantic ranking found. Taking the stronger of the two keeps it; on real conversations, where keyword search is the
 * stronger side, the same fusion is 9.3 points of recall@10 above it (docs/RETRIEVAL.md, "Fusion"): one default, not
 * fitted to either set. The floors sit a few points under the measured values, so a change that makes retrieval
 * worse fails here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RetrievalQualityTest {

    // Two questions (0.048) under the measured 0.917 of SEMANTIC and HYBRID; see the class comment.
    private static final double SEMANTIC_FLOOR_AT_10 = 0.869;
    private static final double HYBRID_FLOOR_AT_10 = 0.869;

    @TempDir
    static Path directory;

    private MemoryProvider provider;
    private List<LabelledRetrievalSet.LabelledQuery> queries;
    private String fingerprint;
    private final Map<SearchMode, double[]> recall = new EnumMap<>(SearchMode.class);

    @BeforeAll
    void storeConversationsAndMeasure() {
        // No model named: a new index gets the default model, whose hybrid search the rule is about.
        ProviderConfig config = ProviderConfig.of(Map.of("path", "vectors"));
        ProviderContext context = ProviderContext.builder().baseDirectory(directory).forgeHome(directory.resolve("forge-home")).projectId("retrieval")
                .sessionId("quality").config(config).build();
        provider = new VectorMemoryProviderFactory().open(context);
        Map<String, String> turns = LabelledRetrievalSet.turns();
        assertThat(turns).hasSize(100);
        turns.forEach((key, text) -> provider.set(key, text, Scope.PROJECT, List.of(), Map.of()));
        queries = LabelledRetrievalSet.queries();
        assertThat(queries).hasSize(42);
        for (SearchMode mode : SearchMode.values()) {
            recall.put(mode, new double[] {meanRecall(mode, 5), meanRecall(mode, 10)});
        }
        System.out.printf("Retrieval quality, %d turns, %d labelled questions (the default model):%n", turns.size(),
                queries.size());
        System.out.printf("  %-9s %9s %10s%n", "mode", "recall@5", "recall@10");
        recall.forEach((mode, r) -> System.out.printf("  %-9s %9.3f %10.3f%n", mode, r[0], r[1]));
        fingerprint = provider.reindexing().orElseThrow().reindex().fingerprint();
        provider.close();
    }

    @Test
    void the_measured_model_is_the_default_e5_small() {
        assertThat(fingerprint).startsWith("e5-small:e5-small-v2-q:");
    }

    @Test
    void hybrid_recall_at_10_is_at_least_that_of_the_better_single_mode() {
        double hybrid = recall.get(SearchMode.HYBRID)[1];
        assertThat(hybrid).as("recall@10 of HYBRID vs KEYWORD").isGreaterThanOrEqualTo(recall.get(SearchMode.KEYWORD)[1]);
        assertThat(hybrid).as("recall@10 of HYBRID vs SEMANTIC").isGreaterThanOrEqualTo(recall.get(SearchMode.SEMANTIC)[1]);
    }

    @Test
    void hybrid_recall_at_5_is_at_least_that_of_keyword_search() {
        assertThat(recall.get(SearchMode.HYBRID)[0]).isGreaterThanOrEqualTo(recall.get(SearchMode.KEYWORD)[0]);
    }

    @Test
    void semantic_and_hybrid_recall_stay_above_their_measured_floors() {
        assertThat(recall.get(SearchMode.SEMANTIC)[1]).isGreaterThanOrEqualTo(SEMANTIC_FLOOR_AT_10);
        assertThat(recall.get(SearchMode.HYBRID)[1]).isGreaterThanOrEqualTo(HYBRID_FLOOR_AT_10);
    }

    @Test
    void on_paraphrased_questions_semantic_search_beats_keyword_search() {
        assertThat(recall.get(SearchMode.SEMANTIC)[1]).isGreaterThan(recall.get(SearchMode.KEYWORD)[1]);
    }

    private double meanRecall(SearchMode mode, int k) {
        return LabelledRetrievalSet.meanRecall(provider, queries, mode, k);
    }
}
