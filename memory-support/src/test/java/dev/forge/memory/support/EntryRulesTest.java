package dev.forge.memory.support;

import dev.forge.memory.EntryRules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EntryRulesTest {

    @Test
    void numbers_are_normalised_to_long_and_double() {
        Map<String, Object> m = EntryRules.normalizeMetadata(Map.of("i", 1, "s", (short) 2, "b", (byte) 3,
                "big", BigInteger.valueOf(4), "f", 1.1f, "dec", new BigDecimal("0.5")), "k");
        assertThat(m).isEqualTo(Map.of("i", 1L, "s", 2L, "b", 3L, "big", 4L, "f", 1.1, "dec", 0.5));
    }

    @Test
    void decimals_a_double_cannot_hold_are_rejected() {
        assertThatThrownBy(() -> EntryRules.normalizeMetadata(Map.of("d", new BigDecimal("0.1000000000000000000001")), "k"))
                .isInstanceOf(InvalidEntryException.class).hasMessageContaining("metadata.d");
    }

    @Test
    void metadata_keys_come_back_sorted_and_nested_values_immutable() {
        Map<String, Object> m = EntryRules.normalizeMetadata(Map.of("b", List.of(1), "a", Map.of("z", 1, "y", 2)), "k");
        assertThat(m.keySet()).containsExactly("a", "b");
        @SuppressWarnings("unchecked")
        Map<String, Object> nested = (Map<String, Object>) m.get("a");
        assertThat(nested.keySet()).containsExactly("y", "z");
        assertThatThrownBy(() -> nested.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void utf8_length_matches_the_encoder() {
        for (String s : List.of("", "abc", "é", "€", "😀", "a😀b€é", "日本語")) {
            assertThat(EntryRules.utf8Length(s)).as(s).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
        }
    }

    @Test
    void relation_types_follow_the_documented_form() {
        assertThat(EntryRules.checkRelationType("DEPENDS_ON")).isEqualTo("DEPENDS_ON");
        assertThat(EntryRules.checkRelationType("a".repeat(64))).hasSize(64);
        for (String bad : new String[] {"", "1X", "has space", "kebab-case", "a".repeat(65), "é"}) {
            assertThatThrownBy(() -> EntryRules.checkRelationType(bad)).as(bad).isInstanceOf(InvalidRequestException.class);
        }
    }

    @Test
    void first_write_and_overwrite_stamp_versions_and_times() {
        EntryWrite write = EntryWrite.validate("k", "v", Scope.PROJECT, List.of("a", "a"), Map.of(), Limits.DEFAULT);
        assertThat(write.tags()).containsExactly("a");
        Instant t0 = Instant.parse("2026-01-01T00:00:00.123456Z");
        MemoryEntry first = write.toEntry(Optional.empty(), t0);
        assertThat(first.version()).isEqualTo(1);
        assertThat(first.createdAt()).isEqualTo(Instant.parse("2026-01-01T00:00:00.123Z"));
        MemoryEntry second = write.toEntry(Optional.of(first), t0.minusSeconds(60));
        assertThat(second.version()).isEqualTo(2);
        assertThat(second.updatedAt()).isEqualTo(first.updatedAt());
    }

    @Test
    void entries_refuse_duplicate_tags() {
        assertThatThrownBy(() -> new MemoryEntry("k", "v", Scope.PROJECT, List.of("a", "a"), Map.of(), Instant.EPOCH, Instant.EPOCH, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void metadata_filters_compare_numbers_by_value_and_nothing_else_loosely() {
        MemoryEntry entry = EntryWrite.validate("k", "v", Scope.PROJECT, List.of(),
                Map.of("n", 2, "d", 2.5, "s", "2", "b", true, "list", List.of(1, 2.0)), Limits.DEFAULT).toEntry(Optional.empty(), Instant.EPOCH);
        assertThat(new dev.forge.memory.Filter(List.of(), Map.of("n", 2.0), Optional.empty(), Optional.empty()).matches(entry)).isTrue();
        assertThat(new dev.forge.memory.Filter(List.of(), Map.of("d", 2.5f), Optional.empty(), Optional.empty()).matches(entry)).isTrue();
        assertThat(new dev.forge.memory.Filter(List.of(), Map.of("list", List.of(1.0, 2)), Optional.empty(), Optional.empty()).matches(entry)).isTrue();
        assertThat(new dev.forge.memory.Filter(List.of(), Map.of("s", 2), Optional.empty(), Optional.empty()).matches(entry)).isFalse();
        assertThat(new dev.forge.memory.Filter(List.of(), Map.of("n", "2"), Optional.empty(), Optional.empty()).matches(entry)).isFalse();
        assertThat(new dev.forge.memory.Filter(List.of(), Map.of("b", 1), Optional.empty(), Optional.empty()).matches(entry)).isFalse();
        assertThatThrownBy(() -> new dev.forge.memory.Filter(List.of(), Map.of("x", Double.NaN), Optional.empty(), Optional.empty()))
                .isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void entry_to_string_never_shows_the_value() {
        MemoryEntry entry = EntryWrite.validate("api-key", "s3cr3t-token", Scope.GLOBAL, List.of(), Map.of(), Limits.DEFAULT)
                .toEntry(Optional.empty(), Instant.EPOCH);
        assertThat(entry.toString()).contains("api-key").doesNotContain("s3cr3t");
    }
}
