package dev.forge.memory.hybrid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.vector.LabelledRetrievalSet;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retrieval quality of the router's HYBRID search on the labelled chat set of provider-vector's tests, with sqlite
 * storage (FTS5 BM25 keyword ranking) and a vector search child with the default MiniLM model: the router fuses the
 * vector child's semantic ranking with the storage's keyword ranking. Printed beside the single modes and the vector
 * provider's own HYBRID (its own BM25 fused the same way). Measured with the default fusion (clipped z-scores, equal
 * weights; Java 17, x86-64):
 *
 * <pre>
 *   ranking                            recall@5  recall@10
 *   KEYWORD (vector child, BM25)          0.500      0.512
 *   KEYWORD (sqlite storage, FTS5)        0.500      0.536
 *   SEMANTIC (vector child)               0.833      0.929
 *   HYBRID (router: sqlite + vector)      0.762      0.905
 *   HYBRID (vector child alone)           0.786      0.929
 * </pre>
 *
 * The questions paraphrase their answers, so a keyword ranking adds little here. The vector child's HYBRID equals
 * SEMANTIC at recall@10; the router stays one question under it: on "How is Jonas studying the local language?" the
 * storage's FTS5 ranking puts other turns naming Jonas above its mean and the answer below it (plain z-score fusion,
 * the default before, was 3.5 questions under: 0.845). No fusion tried without fitting a constant to this set closes
 * that question (docs/RETRIEVAL.md, "Fusion"). The checks: the vector child's HYBRID is at least the better of its
 * two rankings at recall@10; the router's beats both keyword rankings and stays within one question (1/42) of
 * SEMANTIC, above a floor one question under what it measured.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HybridRetrievalQualityTest {

    @TempDir
    static Path directory;

    private HybridMemoryProvider router;
    private final Map<String, double[]> recall = new LinkedHashMap<>();

    @BeforeAll
    void storeConversationsAndMeasure() {
        ProviderContext context = ProviderContext.builder().baseDirectory(directory).projectId("retrieval")
                .sessionId("quality").forgeHome(directory.resolve("forge-home")).build();
        // MiniLM, named: what was measured (new indexes default to bge-small since issue 26)
        router = HybridStores.open(context, HybridStores.config(Map.of("provider", "sqlite"),
                Map.of("provider", "vector", "embedding", Map.of("model", "minilm")), null, Map.of()));
        Map<String, String> turns = LabelledRetrievalSet.turns();
        turns.forEach((key, text) -> router.set(key, text, Scope.PROJECT, List.of(), Map.of()));
        List<LabelledRetrievalSet.LabelledQuery> queries = LabelledRetrievalSet.queries();
        MemoryProvider vector = router.searchProvider().orElseThrow();
        measure("KEYWORD (vector child, BM25)", router, queries, SearchMode.KEYWORD);
        measure("KEYWORD (sqlite storage, FTS5)", router.storage(), queries, SearchMode.KEYWORD);
        measure("SEMANTIC (vector child)", router, queries, SearchMode.SEMANTIC);
        measure("HYBRID (router: sqlite + vector)", router, queries, SearchMode.HYBRID);
        measure("HYBRID (vector child alone)", vector, queries, SearchMode.HYBRID);
        System.out.printf("Retrieval quality of the hybrid router, %d turns, %d labelled questions (MiniLM):%n",
                turns.size(), queries.size());
        System.out.printf("  %-34s %9s %10s%n", "ranking", "recall@5", "recall@10");
        recall.forEach((name, r) -> System.out.printf("  %-34s %9.3f %10.3f%n", name, r[0], r[1]));
    }

    private void measure(String name, MemoryProvider provider, List<LabelledRetrievalSet.LabelledQuery> queries,
            SearchMode mode) {
        recall.put(name, new double[] {LabelledRetrievalSet.meanRecall(provider, queries, mode, 5),
                LabelledRetrievalSet.meanRecall(provider, queries, mode, 10)});
    }

    @AfterAll
    void close() {
        router.close();
    }

    @Test
    void the_routers_hybrid_recall_beats_both_keyword_rankings() {
        for (int k = 0; k < 2; k++) {
            double hybrid = recall.get("HYBRID (router: sqlite + vector)")[k];
            assertThat(hybrid).isGreaterThan(recall.get("KEYWORD (vector child, BM25)")[k]);
            assertThat(hybrid).isGreaterThan(recall.get("KEYWORD (sqlite storage, FTS5)")[k]);
        }
    }

    @Test
    void the_vector_childs_hybrid_recall_at_10_is_at_least_that_of_the_better_single_mode() {
        double hybrid = recall.get("HYBRID (vector child alone)")[1];
        assertThat(hybrid).isGreaterThanOrEqualTo(recall.get("KEYWORD (vector child, BM25)")[1]);
        assertThat(hybrid).isGreaterThanOrEqualTo(recall.get("SEMANTIC (vector child)")[1]);
    }

    @Test
    void the_routers_hybrid_recall_at_10_stays_within_one_question_of_semantic_and_above_the_floor() {
        double hybrid = recall.get("HYBRID (router: sqlite + vector)")[1];
        assertThat(hybrid).isGreaterThanOrEqualTo(recall.get("SEMANTIC (vector child)")[1] - 1.0 / 42 - 1e-9);
        assertThat(hybrid).isGreaterThanOrEqualTo(0.88);
    }
}
