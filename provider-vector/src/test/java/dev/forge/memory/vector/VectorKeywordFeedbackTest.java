package dev.forge.memory.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code keyword_feedback: rm3}: keyword search adds the telling terms of its best first hits to the query, so an
 * entry that shares them but no word of the query is found; off by default; a query-time setting, no reindex.
 */
class VectorKeywordFeedbackTest {

    @TempDir
    Path base;

    private MemoryProvider open(String feedback) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("embedding", Map.of("model", "hashing"));
        if (feedback != null) {
            config.put("keyword_feedback", feedback);
        }
        return new VectorMemoryProviderFactory().open(VectorStores.context(base, "p", config));
    }

    private static void seed(MemoryProvider provider) {
        provider.set("paint", "Melanie painted a sunrise over the lake in watercolours.", Scope.PROJECT, List.of(),
                Map.of());
        provider.set("prize", "Her lake watercolours won the village prize.", Scope.PROJECT, List.of(), Map.of());
        // Enough other entries that "lake" and "watercolours" are rare, as the feedback model asks of its terms.
        for (int i = 0; i < 20; i++) {
            provider.set("other-" + i, "Caroline talked about her week number " + i + " at the office.", Scope.PROJECT,
                    List.of(), Map.of());
        }
    }

    private static List<String> keys(List<Hit> hits) {
        return hits.stream().map(h -> h.entry().key()).toList();
    }

    private static List<Hit> keyword(MemoryProvider provider, String text) {
        return provider.search(SearchRequest.builder(text).mode(SearchMode.KEYWORD).limit(50).build());
    }

    @Test
    void rm3_finds_an_entry_sharing_the_first_hits_telling_words_but_none_of_the_query() {
        try (MemoryProvider provider = open(null)) {
            seed(provider);
            assertThat(keys(keyword(provider, "sunrise painting"))).as("off by default").containsExactly("paint");
        }
        try (MemoryProvider provider = open("rm3")) {
            List<Hit> hits = keyword(provider, "sunrise painting");
            assertThat(keys(hits)).as("the same index, no reindex").startsWith("paint", "prize").hasSize(2);
            assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score()).isLessThanOrEqualTo(1.0);
            assertThat(keys(keyword(provider, "week office"))).as("no telling words: the query's own ranking")
                    .hasSize(20);
        }
    }

    @Test
    void an_unknown_value_is_a_configuration_error_listing_the_allowed_ones() {
        assertThatThrownBy(() -> open("rm2")).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("keyword_feedback").hasMessageContaining("none").hasMessageContaining("rm3");
    }
}
