package dev.forge.memory.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.spi.ProviderConfig;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SearchTextTest {

    private static final MemoryEntry TURN = new MemoryEntry("D1:3", "Caroline: I went to the support group.",
            Scope.PROJECT, List.of("speaker:Caroline", "session:1"),
            Map.of("session_date_time", "1:56 pm on 8 May, 2023", "session", 1), Instant.EPOCH, Instant.EPOCH, 1);

    /** Bound as a provider's record binds it. */
    record Settings(SearchText searchFields) {
    }

    @Test
    void the_default_is_key_tags_and_value_as_embedded_before_the_setting_existed() {
        assertThat(SearchText.DEFAULT.text(TURN))
                .isEqualTo("D1:3\nspeaker:Caroline session:1\nCaroline: I went to the support group.");
        assertThat(SearchText.of(List.of("key", "tags"))).isEqualTo(SearchText.DEFAULT);
        assertThat(SearchText.of(null).isDefault()).isTrue();
    }

    @Test
    void metadata_fields_are_indexed_as_their_text_in_the_order_given_and_a_missing_one_adds_nothing() {
        SearchText text = SearchText.of(List.of("metadata.session_date_time", "metadata.absent", "tags"));
        assertThat(text.text(TURN)).isEqualTo("1:56 pm on 8 May, 2023\nspeaker:Caroline session:1\n"
                + "Caroline: I went to the support group.");
        assertThat(SearchText.of(List.of()).text(TURN)).isEqualTo(TURN.value());
    }

    @Test
    void numbers_lists_and_objects_render_as_the_text_of_their_values() {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("n", new BigDecimal("2.50"));
        metadata.put("d", 3.0);
        metadata.put("list", List.of("red", 7, true));
        metadata.put("object", Map.of("team", "search"));
        MemoryEntry entry = new MemoryEntry("k", "v", Scope.PROJECT, List.of(), metadata, Instant.EPOCH, Instant.EPOCH, 1);
        SearchText text = SearchText.of(List.of("metadata.n", "metadata.d", "metadata.list", "metadata.object"));
        assertThat(text.text(entry)).isEqualTo("2.5\n3\nred 7 true\nsearch\nv");
    }

    @Test
    void binds_from_a_config_list_and_repeated_items_count_once() {
        Settings bound = ProviderConfig.of(Map.of("search_fields", List.of("tags", "metadata.topic", "tags")))
                .bind(Settings.class);
        assertThat(bound.searchFields().fields()).containsExactly("tags", "metadata.topic");
    }

    @Test
    void an_unknown_item_is_a_configuration_error_naming_the_setting_and_the_allowed_forms() {
        for (String bad : List.of("value", "title", "metadata.", "Key", "meta.topic")) {
            assertThatThrownBy(() -> ProviderConfig.of(Map.of("search_fields", List.of("key", bad)), "config.yaml",
                    "memory.config").bind(Settings.class))
                    .as(bad).isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("memory.config.search_fields")
                    .hasMessageContaining("'" + bad + "'")
                    .hasMessageContaining("key, tags or metadata.<name>");
        }
        assertThatThrownBy(() -> SearchText.of(List.of("value"))).hasMessageContaining("the value is always indexed");
    }

    @Test
    void keyword_ranking_finds_a_word_held_only_in_a_configured_metadata_field() {
        MemoryEntry other = new MemoryEntry("D1:4", "Melanie: That sounds lovely.", Scope.PROJECT, List.of(),
                Map.of("session_date_time", "2:00 pm on 9 June, 2023"), Instant.EPOCH, Instant.EPOCH, 1);
        SearchRequest may = SearchRequest.keyword("May 2023");
        assertThat(KeywordScorer.rank(may, List.of(TURN, other))).isEmpty();
        List<Hit> hits = KeywordScorer.rank(may, List.of(TURN, other),
                SearchText.of(List.of("key", "tags", "metadata.session_date_time")));
        assertThat(hits).extracting(h -> h.entry().key()).containsExactly("D1:3", "D1:4");
        assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score());
    }
}
