package dev.forge.memory.springai.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class IdKeysTest {

    @Test
    void ids_map_to_distinct_keys_and_back() {
        List<String> ids = List.of("a", "a%", "a%25", "a%0A", "a\n", "a\u2028", "a%u2028", "\u0085", "x/y", "会话", "\ud83d\ude00");
        Set<String> keys = new HashSet<>();
        for (String id : ids) {
            String key = IdKeys.key("doc:", id, "document id");
            assertThat(keys.add(key)).as(id).isTrue();
            assertThat(IdKeys.id("doc:", key)).isEqualTo(id);
        }
    }

    @Test
    void a_key_made_by_hand_with_a_stray_percent_reads_as_written() {
        assertThat(IdKeys.id("doc:", "doc:50%")).isEqualTo("50%");
        assertThat(IdKeys.id("doc:", "doc:%zz%u12")).isEqualTo("%zz%u12");
    }
}
