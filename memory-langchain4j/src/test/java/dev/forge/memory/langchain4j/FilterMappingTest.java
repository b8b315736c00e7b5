package dev.forge.memory.langchain4j;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.langchain4j.store.embedding.filter.Filter.and;
import static dev.langchain4j.store.embedding.filter.Filter.not;
import static dev.langchain4j.store.embedding.filter.Filter.or;
import static dev.langchain4j.store.embedding.filter.MetadataFilterBuilder.metadataKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which LangChain4j filters become forge-memory metadata equalities, and how the rest are refused. */
class FilterMappingTest {

    @Test
    void equalities_single_value_in_and_their_conjunction_map_exactly() {
        UUID run = UUID.fromString("00000000-0000-0000-0000-000000000007");
        assertThat(FilterMapping.equalities(and(metadataKey("team").isEqualTo("search"),
                and(metadataKey("run").isIn(List.of(run)), metadataKey("year").isEqualTo(2026)))))
                .contains(Map.of("team", "search", "run", run.toString(), "year", 2026));
    }

    @Test
    void one_field_equal_to_two_values_matches_nothing_and_to_one_value_twice_is_one_condition() {
        assertThat(FilterMapping.equalities(and(metadataKey("a").isEqualTo("x"), metadataKey("a").isEqualTo("y")))).isEmpty();
        assertThat(FilterMapping.equalities(and(metadataKey("n").isEqualTo(2), metadataKey("n").isEqualTo(2L))))
                .contains(Map.of("n", 2));
    }

    @Test
    void every_other_filter_is_refused_naming_its_kind_and_the_whole_filter() {
        assertThatThrownBy(() -> FilterMapping.equalities(and(metadataKey("a").isEqualTo("x"), metadataKey("n").isGreaterThan(3))))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("IsGreaterThan")
                .hasMessageContaining("(in And");
        assertThatThrownBy(() -> FilterMapping.equalities(metadataKey("a").isIn(List.of("x", "y"))))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("IsIn with 2 values");
        for (var filter : List.of(metadataKey("a").isNotEqualTo("x"), metadataKey("a").isNotIn(List.of("x")),
                or(metadataKey("a").isEqualTo("x"), metadataKey("b").isEqualTo("y")), not(metadataKey("a").isEqualTo("x")),
                metadataKey("a").containsString("x"), metadataKey("n").isLessThanOrEqualTo(1))) {
            assertThatThrownBy(() -> FilterMapping.equalities(filter)).as(filter.toString())
                    .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("has no exact form");
        }
        assertThatThrownBy(() -> FilterMapping.equalities(metadataKey("langchain4j:embedding").isEqualTo("x")))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("keeps for itself");
    }
}
