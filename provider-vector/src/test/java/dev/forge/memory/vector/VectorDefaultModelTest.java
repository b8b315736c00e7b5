package dev.forge.memory.vector;

import dev.forge.memory.Hit;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.spi.ProviderContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The model of a store whose config names none: the one its index records (a store built by {@code minilm} under the
 * old default keeps it, with no reindex), else, for a new index, {@link VectorConfig#DEFAULT_MODEL}. A model the config
 * names is obeyed as before. Run on real Lucene indexes with the real local models.
 */
class VectorDefaultModelTest {

    private static final Map<String, Object> NO_MODEL = Map.of();

    @TempDir
    Path base;

    private MemoryProvider open(Map<String, Object> config) {
        return open(VectorStores.context(base, "p", config), false);
    }

    private static MemoryProvider open(ProviderContext context, boolean forReindex) {
        return new VectorMemoryProviderFactory().open(context.toBuilder().openForReindex(forReindex).build());
    }

    private static Map<String, Object> model(String name) {
        return Map.of("embedding", Map.of("model", name));
    }

    private static String modelOf(MemoryProvider provider) {
        return ((VectorMemoryProvider) provider).embeddingModel().name();
    }

    private static List<String> semantic(MemoryProvider provider, String text) {
        return provider.search(SearchRequest.builder(text).mode(SearchMode.SEMANTIC).limit(3).build()).stream()
                .map(h -> h.entry().key()).toList();
    }

    /** A store as the old default (minilm) left it: the test names minilm, as the old default did for it. */
    private List<MemoryEntry> oldMinilmStore() {
        try (MemoryProvider provider = open(model("minilm"))) {
            provider.set("move", "Jonas moved to Lisbon last spring.", Scope.PROJECT);
            provider.set("pet", "The cat is called Miso.", Scope.PROJECT);
            provider.set("tea", "Ana drinks green tea every morning.", Scope.GLOBAL);
            return provider.query(Query.builder().build());
        }
    }

    @Test
    void a_new_store_that_names_no_model_is_built_by_e5_small_and_keeps_it() {
        assertThat(VectorConfig.DEFAULT_MODEL).isEqualTo("e5-small");
        String fingerprint;
        try (MemoryProvider provider = open(NO_MODEL)) {
            assertThat(modelOf(provider)).isEqualTo("e5-small");
            provider.set("move", "Jonas moved to Lisbon last spring.", Scope.PROJECT);
            provider.set("pet", "The cat is called Miso.", Scope.PROJECT);
            assertThat(semantic(provider, "Which city did he relocate to?")).first().isEqualTo("move");
            fingerprint = ((VectorMemoryProvider) provider).embeddingModel().fingerprint();
        }
        assertThat(fingerprint).startsWith("e5-small:e5-small-v2-q:");
        try (MemoryProvider provider = open(NO_MODEL)) {
            assertThat(((VectorMemoryProvider) provider).embeddingModel().fingerprint()).isEqualTo(fingerprint);
            assertThat(semantic(provider, "What is the cat's name?")).first().isEqualTo("pet");
        }
        assertThatThrownBy(() -> open(model("minilm"))).isInstanceOf(IndexModelMismatchException.class);
    }

    @Test
    void an_index_built_by_bge_small_under_the_previous_default_keeps_bge_small_with_no_reindex() {
        List<MemoryEntry> before;
        try (MemoryProvider provider = open(model("bge-small"))) {
            provider.set("move", "Jonas moved to Lisbon last spring.", Scope.PROJECT);
            before = provider.query(Query.builder().build());
        }
        try (MemoryProvider provider = open(NO_MODEL)) {
            assertThat(modelOf(provider)).isEqualTo("bge-small");
            assertThat(provider.query(Query.builder().build())).containsExactlyElementsOf(before);
            assertThat(semantic(provider, "Which city did he relocate to?")).first().isEqualTo("move");
        }
    }

    @Test
    void an_index_built_by_minilm_under_the_old_default_keeps_minilm_with_no_reindex() {
        List<MemoryEntry> before = oldMinilmStore();
        try (MemoryProvider provider = open(NO_MODEL)) {
            assertThat(modelOf(provider)).isEqualTo("minilm");
            assertThat(provider.query(Query.builder().build())).containsExactlyElementsOf(before);
            assertThat(semantic(provider, "Which city did he relocate to?")).first().isEqualTo("move");
            assertThat(provider.search(SearchRequest.builder("What does Ana drink?").mode(SearchMode.HYBRID).build()))
                    .extracting(h -> h.entry().key()).first().isEqualTo("tea");
            provider.set("plant", "The fern needs water on Sundays.", Scope.PROJECT);
            assertThat(provider.doctor()).isEmpty();
        }
        // settings beside no model name: the index's model with them
        try (MemoryProvider provider = open(Map.of("embedding", Map.of("threads", 1)))) {
            assertThat(modelOf(provider)).isEqualTo("minilm");
            assertThat(semantic(provider, "When does the fern get water?")).first().isEqualTo("plant");
        }
    }

    @Test
    void a_reindex_that_names_a_model_moves_an_old_store_to_it() {
        List<MemoryEntry> before = oldMinilmStore();
        try (MemoryProvider provider = open(VectorStores.context(base, "p", model("bge-small")), true)) {
            assertThat(provider.requireReindexing().reindex().fingerprint()).startsWith("bge-small:");
        }
        try (MemoryProvider provider = open(NO_MODEL)) {
            assertThat(modelOf(provider)).isEqualTo("bge-small");
            assertThat(provider.query(Query.builder().build())).containsExactlyElementsOf(before);
            assertThat(semantic(provider, "Which city did he relocate to?")).first().isEqualTo("move");
        }
    }

    @Test
    void a_model_the_config_names_is_obeyed_and_another_index_model_is_refused_with_the_reindex_hint() {
        oldMinilmStore();
        assertThatThrownBy(() -> open(model("bge-small"))).isInstanceOfSatisfying(IndexModelMismatchException.class, e -> {
            assertThat(e.indexFingerprint()).startsWith("minilm:");
            assertThat(e.configuredFingerprint()).startsWith("bge-small:");
            assertThat(e.getMessage()).contains("forge-memory reindex");
        });
        try (MemoryProvider provider = open(model("minilm"))) {
            assertThat(modelOf(provider)).isEqualTo("minilm");
        }
    }

    @Test
    void a_new_project_takes_the_model_of_the_shared_global_index_so_that_it_reads_global_memories_without_a_reindex() {
        oldMinilmStore();
        ProviderContext other = VectorStores.context(base, "q", NO_MODEL).toBuilder().baseDirectory(base.resolve("other"))
                .build();
        try (MemoryProvider provider = open(other, false)) {
            assertThat(modelOf(provider)).isEqualTo("minilm");
            assertThat(provider.search(SearchRequest.builder("What does Ana drink?").mode(SearchMode.SEMANTIC)
                    .scopes(Scope.GLOBAL).build())).extracting(h -> h.entry().key()).containsExactly("tea");
        }
    }

    @Test
    void an_index_of_a_model_with_other_settings_than_its_defaults_asks_to_name_them() {
        try (MemoryProvider provider = VectorStores.open(base, 256, false)) {
            provider.set("k", "a value", Scope.PROJECT);
        }
        assertThatThrownBy(() -> open(NO_MODEL)).isInstanceOfSatisfying(IndexModelMismatchException.class, e -> {
            assertThat(e.indexFingerprint()).endsWith("dim=256");
            assertThat(e.getMessage()).contains("names no model").contains("'hashing'")
                    .contains("embedding: {model: hashing, ...}");
        });
    }

    /**
     * Seed 004, "VectorProvider", its "Capabilities" example, on a new store that names no model: the memory is the
     * first hit, with the seed's {@code threshold=0.8}. A semantic score is the cosine of the two vectors: e5-small
     * puts this question and its answer at 0.886 (printed); bge-small, the default before, put them below 0.8 and
     * found nothing. Thresholds depend on the model (e5-small's cosines sit high for every text: docs/embeddings.md).
     */
    @Test
    void seed_004_vector_capabilities_example_finds_its_memory_first_with_the_default_model() throws IOException {
        String example;
        try (InputStream in = getClass().getResourceAsStream("/seeds/004/vector-capabilities.py")) {
            example = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String key = argument(example, "key");
        String value = argument(example, "value");
        String question = argument(example, "semantic");
        int limit = Integer.parseInt(number(example, "limit"));
        double threshold = Double.parseDouble(number(example, "threshold"));
        try (MemoryProvider provider = open(NO_MODEL)) {
            assertThat(modelOf(provider)).isEqualTo("e5-small");
            provider.set(key, value, Scope.GLOBAL);
            provider.set("pattern:retry", "Retry failed HTTP calls three times with exponential backoff.", Scope.GLOBAL);
            provider.set("pattern:sql", "Use parameterised SQL queries, never string concatenation.", Scope.GLOBAL);
            List<Hit> results = provider.search(SearchRequest.builder(question).mode(SearchMode.SEMANTIC)
                    .scopes(Scope.GLOBAL).limit(limit).threshold(threshold).build());
            assertThat(results).extracting(h -> h.entry().key()).first().isEqualTo(key);
            System.out.printf("seed 004 example: score %.3f with e5-small (the seed's threshold: %.2f)%n",
                    results.get(0).score(), threshold);
        }
    }

    private static String argument(String example, String name) {
        Matcher m = Pattern.compile(name + "=\"([^\"]*)\"").matcher(example);
        assertThat(m.find()).as(name).isTrue();
        return m.group(1);
    }

    private static String number(String example, String name) {
        Matcher m = Pattern.compile(name + "=([0-9.]+)").matcher(example);
        assertThat(m.find()).as(name).isTrue();
        return m.group(1);
    }
}
