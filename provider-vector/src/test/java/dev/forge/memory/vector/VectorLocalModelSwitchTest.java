package dev.forge.memory.vector;

import dev.forge.memory.support.SearchText;
import dev.forge.memory.Hit;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.support.EmbeddingModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The two local models on one store: an index built with {@code minilm} is refused by {@code bge-small} with the
 * reindex hint until it is reindexed, and a search with {@code bge-small} embeds its text with the model's query
 * instruction while the stored texts are embedded without it.
 */
class VectorLocalModelSwitchTest {

    private static final String INSTRUCTION = "Represent this sentence for searching relevant passages: ";

    @TempDir
    Path base;

    private MemoryProvider open(String model, boolean forReindex) {
        return new VectorMemoryProviderFactory().open(VectorStores.context(base, "p", Map.of("embedding", Map.of("model", model)))
                .toBuilder().openForReindex(forReindex).build());
    }

    private static List<Hit> semantic(MemoryProvider provider, String text) {
        return provider.search(SearchRequest.builder(text).mode(SearchMode.SEMANTIC).limit(3).build());
    }

    private static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    @Test
    void switching_from_minilm_to_bge_small_asks_for_reindex_and_reindex_makes_the_index_bge_small_s() {
        List<MemoryEntry> before;
        String minilm;
        try (MemoryProvider provider = open("minilm", false)) {
            provider.set("D1:3", "Caroline: I went to a LGBTQ support group yesterday and it was so powerful.", Scope.PROJECT);
            provider.set("D1:12", "Melanie: I painted that lake sunrise last year! It's special to me.", Scope.PROJECT);
            provider.set("D2:8", "Caroline: I've been researching adoption agencies.", Scope.GLOBAL);
            before = provider.query(Query.builder().build());
            minilm = provider.requireReindexing().reindex().fingerprint();
        }
        assertThat(minilm).startsWith("minilm:");

        assertThatThrownBy(() -> open("bge-small", false)).isInstanceOfSatisfying(IndexModelMismatchException.class, e -> {
            assertThat(e.indexFingerprint()).isEqualTo(minilm);
            assertThat(e.configuredFingerprint()).startsWith("bge-small:bge-small-en-v1.5-q:").endsWith(":cls:l2");
            assertThat(e.getMessage()).contains("forge-memory reindex");
        });
        try (MemoryProvider provider = open("minilm", false)) {
            assertThat(semantic(provider, "What did Melanie paint?")).first().extracting(h -> h.entry().key()).isEqualTo("D1:12");
        }

        try (MemoryProvider provider = open("bge-small", true)) {
            assertThat(provider.requireReindexing().reindex().entries()).isEqualTo(3);
        }
        try (MemoryProvider provider = open("bge-small", false)) {
            assertThat(provider.query(Query.builder().build())).containsExactlyElementsOf(before);
            assertThat(semantic(provider, "When did Caroline go to the support group?")).first()
                    .extracting(h -> h.entry().key()).isEqualTo("D1:3");
            assertThat(semantic(provider, "What did Caroline research?")).first()
                    .extracting(h -> h.entry().key()).isEqualTo("D2:8");
        }
        assertThatThrownBy(() -> open("minilm", false)).isInstanceOf(IndexModelMismatchException.class);
    }

    @Test
    void a_bge_small_search_embeds_its_text_with_the_instruction_and_the_stored_text_without() {
        String question = "What did Melanie paint?";
        try (MemoryProvider provider = open("bge-small", false);
             EmbeddingModel model = EmbeddingModels.load().open(ProviderConfig.of(Map.of("model", "bge-small")))) {
            provider.set("D1:12", "Melanie: I painted that lake sunrise last year! It's special to me.", Scope.PROJECT);
            Hit hit = semantic(provider, question).get(0);
            float[] stored = model.embed(SearchText.DEFAULT.text(hit.entry()));
            double instructed = dot(model.embed(INSTRUCTION + question), stored);
            double plain = dot(model.embed(question), stored);
            assertThat(Math.abs(instructed - plain)).as("the two differ enough to tell apart").isGreaterThan(0.005);
            assertThat(hit.score()).isCloseTo(instructed, within(1e-4));
        }
    }
}
