package dev.forge.memory.vector;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retrieval quality on a small labelled set written for this project: four conversations of 25 short chat turns,
 * one entry per turn, and 42 questions that paraphrase what was said, each with the keys of the turns that answer
 * it. Measures turn-level recall@5 and recall@10 of every search mode with the default configuration (MiniLM,
 * weighted fusion) and checks that HYBRID is at least as good as each single mode in recall@10, the measure the
 * long-conversation benchmarks report. Measured when written (Java 17 and 25, x86-64):
 *
 * <pre>
 *   mode      recall@5  recall@10
 *   KEYWORD      0.500      0.512
 *   SEMANTIC     0.833      0.929
 *   HYBRID       0.786      0.929
 * </pre>
 *
 * At recall@5 HYBRID stays under SEMANTIC (two of 42 questions drop from rank 4 or 5 to 6): the questions share
 * few words with their answers by design, so the keyword ranking is mostly names and common words. Plain
 * reciprocal rank fusion (k = 60, equal weights) scored 0.631 and 0.869 here, which is why the provider weighs the
 * keyword ranking at 0.25 by default. The floors sit a few points under the measured values, so a change that makes
 * retrieval worse fails here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RetrievalQualityTest {

    // Two questions (0.048) under the measured 0.929 of each; see the class comment.
    private static final double SEMANTIC_FLOOR_AT_10 = 0.88;
    private static final double HYBRID_FLOOR_AT_10 = 0.88;

    @TempDir
    static Path directory;

    private MemoryProvider provider;
    private List<LabelledQuery> queries;
    private String fingerprint;
    private final Map<SearchMode, double[]> recall = new EnumMap<>(SearchMode.class);

    record LabelledQuery(String id, String text, Set<String> relevant) {
    }

    @BeforeAll
    void storeConversationsAndMeasure() throws IOException {
        // No embedding block: the default model, minilm.
        ProviderConfig config = ProviderConfig.of(Map.of("path", "vectors"));
        ProviderContext context = ProviderContext.builder().baseDirectory(directory).projectId("retrieval")
                .sessionId("quality").config(config).build();
        provider = new VectorMemoryProviderFactory().open(context);
        Map<String, String> turns = turns();
        assertThat(turns).hasSize(100);
        turns.forEach((key, text) -> provider.set(key, text, Scope.PROJECT, List.of(), Map.of()));
        queries = queries();
        assertThat(queries).hasSize(42);
        for (SearchMode mode : SearchMode.values()) {
            recall.put(mode, new double[] {meanRecall(mode, 5), meanRecall(mode, 10)});
        }
        System.out.printf("Retrieval quality, %d turns, %d labelled questions (MiniLM):%n", turns.size(), queries.size());
        System.out.printf("  %-9s %9s %10s%n", "mode", "recall@5", "recall@10");
        recall.forEach((mode, r) -> System.out.printf("  %-9s %9.3f %10.3f%n", mode, r[0], r[1]));
        fingerprint = provider.reindexing().orElseThrow().reindex().fingerprint();
        provider.close();
    }

    @Test
    void the_default_model_is_minilm() {
        assertThat(fingerprint).startsWith("minilm:all-MiniLM-L6-v2-q:");
    }

    @Test
    void hybrid_recall_at_10_is_at_least_that_of_each_single_mode() {
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
        double sum = 0;
        for (LabelledQuery query : queries) {
            List<Hit> hits = provider.search(SearchRequest.builder(query.text()).scopes(Scope.PROJECT).mode(mode)
                    .limit(k).build());
            long found = hits.stream().map(hit -> hit.entry().key()).filter(query.relevant()::contains).count();
            sum += (double) found / query.relevant().size();
        }
        return sum / queries.size();
    }

    private static Map<String, String> turns() throws IOException {
        Map<String, String> turns = new LinkedHashMap<>();
        String conversation = null;
        int turn = 0;
        try (BufferedReader reader = resource("retrieval/conversations.txt")) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                if (line.startsWith("== ")) {
                    conversation = line.substring(3).trim();
                    turn = 0;
                    continue;
                }
                turns.put("%s:%02d".formatted(conversation, ++turn), line.trim());
            }
        }
        return turns;
    }

    private static List<LabelledQuery> queries() throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<LabelledQuery> queries = new ArrayList<>();
        try (BufferedReader reader = resource("retrieval/queries.jsonl")) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node = json.readTree(line);
                List<String> relevant = new ArrayList<>();
                node.get("relevant").forEach(key -> relevant.add(key.asText()));
                queries.add(new LabelledQuery(node.get("id").asText(), node.get("text").asText(), Set.copyOf(relevant)));
            }
        }
        return queries;
    }

    private static BufferedReader resource(String name) {
        InputStream in = RetrievalQualityTest.class.getClassLoader().getResourceAsStream(name);
        assertThat(in).as("test resource %s", name).isNotNull();
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }
}
