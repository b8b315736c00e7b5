package dev.forge.memory.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.EntryRules;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.Keys;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The mapping of the official MCP memory server's names, observations and relation types onto forge-memory's rules. */
class McpMemoryFormatTest {

    private static final List<String> NAMES = List.of("Alice", "alice", "", " ", "a:b", "entity:x", "%", "%0025",
            "line\nbreak", "tab\there", "\u2028", "\u0000", "../etc/passwd", "Zoë Müller", "🚀 Launch", "x".repeat(505),
            "x".repeat(506), "x".repeat(5000), "\n".repeat(200), "%".repeat(120));

    @Test
    void every_name_maps_to_a_valid_key_and_distinct_names_to_distinct_keys() {
        Set<String> keys = new HashSet<>();
        for (String name : NAMES) {
            String key = McpMemoryFormat.key(name);
            assertThat(Keys.validate(key)).isEqualTo(key);
            assertThat(McpMemoryFormat.key(name)).as("stable").isEqualTo(key);
            keys.add(key);
        }
        assertThat(keys).hasSize(NAMES.size());
    }

    @Test
    void a_plain_name_is_readable_in_its_key() {
        assertThat(McpMemoryFormat.key("Zoë Müller")).isEqualTo("entity:Zoë Müller");
        assertThat(McpMemoryFormat.key("a\nb%")).isEqualTo("entity:a%000Ab%0025");
    }

    @Test
    void observations_come_back_exactly_and_in_order() {
        List<String> observations = List.of("plain", "two\nlines", "", "- dash", "back\\slash\\n", "\r\n", "\u2028\u2029",
                "   spaced   ", "plain");
        assertThat(McpMemoryFormat.observations(McpMemoryFormat.value(observations))).containsExactlyElementsOf(observations);
        assertThat(McpMemoryFormat.observations(McpMemoryFormat.value(List.of()))).isEmpty();
        assertThat(McpMemoryFormat.observations(McpMemoryFormat.value(List.of("")))).containsExactly("");
        assertThat(McpMemoryFormat.value(List.of("one", "two"))).isEqualTo("- one\n- two");
    }

    @Test
    void relation_types_map_to_valid_types_and_back() {
        List<String> types = List.of("works_at", "WORKS_AT", "works at", "is-part-of", "", "x__y", "a__b", "_x", "1st",
                "日本", "x__works_20_at");
        Set<String> mapped = new HashSet<>();
        for (String type : types) {
            String forge = McpMemoryFormat.relationType(type);
            assertThat(EntryRules.checkRelationType(forge)).isEqualTo(forge);
            assertThat(McpMemoryFormat.officialRelationType(forge)).isEqualTo(type);
            mapped.add(forge);
        }
        assertThat(mapped).hasSize(types.size());
        assertThat(McpMemoryFormat.relationType("works_at")).isEqualTo("works_at");
    }

    @Test
    void a_relation_type_too_long_for_a_forge_relation_is_refused_with_what_to_do() {
        assertThatThrownBy(() -> McpMemoryFormat.relationType("is a very long relation type with many spaces in it"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("shorter relation type");
    }

    @Test
    void text_with_an_unpaired_surrogate_is_refused() {
        assertThatThrownBy(() -> McpMemoryFormat.key("bad\uD800"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("unpaired surrogate");
    }
}
