package dev.forge.memory.sqlite.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Decoding the tags and metadata columns: the common forms fast, anything else checked as strictly as before. */
class RowsTest {

    @Test
    void tags_are_read_in_order() {
        assertThat(Rows.tags("[]")).isEmpty();
        assertThat(Rows.tags("[\"b\",\"a\"]")).containsExactly("b", "a");
        assertThat(Rows.tags(" [ \"with \\\"quote\\\"\" , \"é\" ] ")).containsExactly("with \"quote\"", "é");
        assertThat(Rows.tags(Rows.tagsJson(List.of("x", "y")))).containsExactly("x", "y");
        assertThat(Rows.tags("[\"a\",\"\"]")).containsExactly("a", "");
        assertThat(Rows.tags("[\"a,b\",\"c\"]")).containsExactly("a,b", "c");
        assertThat(Rows.tags(Rows.tagsJson(List.of("tab\there", "quote\"", "back\\slash", "𝄞"))))
                .containsExactly("tab\there", "quote\"", "back\\slash", "𝄞");
    }

    @Test
    void tags_that_are_not_an_array_of_text_are_refused() {
        for (String bad : new String[] {"null", "{}", "[1]", "[null]", "[[\"a\"]]", "[{\"a\":1}]", "[\"a\"] x", "[\"a\"]]",
                "[\"a\"", "[\"a\",]", "not json", "", "\"a\"",
                "[\"a\",\"]", "[\"]", "[\"a\"\",\"\"]", "[\"raw\ttab\"]", "[\"a\"],[\"b\"]"}) {
            assertThatThrownBy(() -> Rows.tags(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("tags");
        }
        assertThatThrownBy(() -> Rows.tags(null)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NULL");
    }

    @Test
    void metadata_is_read_with_whole_numbers_as_longs() {
        assertThat(Rows.metadata("{}")).isEmpty();
        assertThat(Rows.metadata("{\"n\":1,\"s\":\"t\",\"b\":true,\"l\":[1,2.5],\"m\":{\"k\":null}}"))
                .containsEntry("n", 1L).containsEntry("s", "t").containsEntry("b", true).containsEntry("l", List.of(1L, 2.5));
        assertThat(Rows.metadata(Rows.metadataJson(Map.of("a", "b")))).containsExactlyEntriesOf(Map.of("a", "b"));
    }

    @Test
    void metadata_that_is_not_one_json_object_is_refused() {
        for (String bad : new String[] {"null", "[]", "{\"a\":1,\"a\":2}", "{} x", "{\"a\":", "not json", ""}) {
            assertThatThrownBy(() -> Rows.metadata(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("metadata");
        }
        assertThatThrownBy(() -> Rows.metadata(null)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NULL");
    }
}
