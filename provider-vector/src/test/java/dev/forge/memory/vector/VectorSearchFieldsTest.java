package dev.forge.memory.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
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
 * {@code search_fields} on the vector provider: the metadata fields it names are in the keyword text and in the text
 * that is embedded; an index records the fields it was built with, and a provider configured with others is refused
 * with the reindex hint until {@code reindex} rebuilds it with them.
 */
class VectorSearchFieldsTest {

    private static final List<String> WITH_DATE = List.of("tags", "metadata.session_date_time");

    @TempDir
    Path base;

    private MemoryProvider open(List<String> fields, boolean forReindex) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("embedding", Map.of("model", "hashing"));
        if (fields != null) {
            config.put("search_fields", fields);
        }
        return new VectorMemoryProviderFactory().open(VectorStores.context(base, "p", config).toBuilder()
                .openForReindex(forReindex).build());
    }

    private static void seed(MemoryProvider provider) {
        provider.set("D1:3", "Caroline: I went to the support group.", Scope.PROJECT, List.of("speaker:Caroline"),
                Map.of("session_date_time", "1:56 pm on 8 May, 2023"));
        provider.set("D2:1", "Melanie: We painted a sunrise.", Scope.PROJECT, List.of("speaker:Melanie"),
                Map.of("session_date_time", "2:10 pm on 25 June, 2023"));
    }

    private static List<String> keys(List<Hit> hits) {
        return hits.stream().map(h -> h.entry().key()).toList();
    }

    private static SearchRequest request(String text, SearchMode mode) {
        return SearchRequest.builder(text).mode(mode).build();
    }

    @Test
    void the_named_metadata_is_searched_by_keyword_and_embedded_and_a_left_out_key_is_not() {
        try (MemoryProvider provider = open(WITH_DATE, false)) {
            seed(provider);
            assertThat(keys(provider.search(request("May", SearchMode.KEYWORD)))).containsExactly("D1:3");
            // the hashing model is lexical: only an embedded text holding the date matches it
            assertThat(keys(provider.search(request("May", SearchMode.SEMANTIC)))).containsExactly("D1:3");
            assertThat(keys(provider.search(request("June 2023 sunrise", SearchMode.HYBRID))).get(0)).isEqualTo("D2:1");
            assertThat(provider.search(request("D1", SearchMode.KEYWORD))).isEmpty();
        }
    }

    @Test
    void a_changed_setting_is_refused_with_the_reindex_hint_until_reindexed() {
        List<MemoryEntry> before;
        try (MemoryProvider provider = open(null, false)) {
            seed(provider);
            assertThat(provider.search(request("May", SearchMode.KEYWORD))).isEmpty();
            before = provider.query(Query.builder().build());
        }
        assertThatThrownBy(() -> open(WITH_DATE, false))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("search_fields [key, tags]")
                .hasMessageContaining("[tags, metadata.session_date_time]")
                .hasMessageContaining("forge-memory reindex")
                .satisfies(e -> assertThat(((ConfigurationException) e).field()).contains("memory.config.search_fields"));
        try (MemoryProvider provider = open(WITH_DATE, true)) {
            assertThat(provider.requireReindexing().reindex().entries()).isEqualTo(2);
        }
        try (MemoryProvider provider = open(WITH_DATE, false)) {
            assertThat(provider.query(Query.builder().build())).containsExactlyElementsOf(before);
            assertThat(keys(provider.search(request("May", SearchMode.KEYWORD)))).containsExactly("D1:3");
            assertThat(keys(provider.search(request("May", SearchMode.SEMANTIC)))).containsExactly("D1:3");
            assertThat(provider.doctor()).isEmpty();
        }
        assertThatThrownBy(() -> open(null, false)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("forge-memory reindex");
    }
}
