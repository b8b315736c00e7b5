package dev.forge.memory.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {

    private static final List<String> NAMES = List.of("markdown", "file", "sqlite", "graph", "vector", "hybrid");

    @Test
    void a_misspelled_name_gets_the_closest_candidate() {
        assertThat(Suggestions.closest("sqlit", NAMES)).contains("sqlite");
        assertThat(Suggestions.closest("MarkDwon", NAMES)).contains("markdown");
        assertThat(Suggestions.closest("fiel", NAMES)).contains("file");
    }

    @Test
    void a_name_far_from_every_candidate_gets_none() {
        assertThat(Suggestions.closest("postgres", NAMES)).isEmpty();
        assertThat(Suggestions.closest("", NAMES)).isEmpty();
    }

    @Test
    void a_name_whose_length_alone_rules_out_every_candidate_gets_none() {
        assertThat(Suggestions.closest("sqlite".repeat(200_000), NAMES)).isEmpty();
        assertThat(Suggestions.closest("graphs", NAMES)).contains("graph");
    }

    @Test
    void distance_counts_insertions_deletions_and_substitutions() {
        assertThat(Suggestions.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(Suggestions.distance("", "abc")).isEqualTo(3);
        assertThat(Suggestions.distance("same", "same")).isZero();
    }
}
