package dev.forge.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SearchRequestTest {

    @Test
    void blank_text_is_rejected() {
        for (String blank : List.of("", " ", "\t\n ")) {
            assertThatThrownBy(() -> SearchRequest.keyword(blank)).as("text '%s'", blank)
                    .isInstanceOf(InvalidRequestException.class);
            assertThatThrownBy(() -> SearchRequest.builder(blank).mode(SearchMode.SEMANTIC).build()).as("text '%s'", blank)
                    .isInstanceOf(InvalidRequestException.class);
        }
    }

    @Test
    void text_with_a_word_among_spaces_is_kept_as_given() {
        assertThat(SearchRequest.keyword(" walrus\n").text()).isEqualTo(" walrus\n");
    }
}
