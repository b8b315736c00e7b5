package dev.forge.memory.markdown.internal;

import static dev.forge.memory.markdown.internal.MemoryFileFixtures.file;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The invariants of {@link MemoryFile} and {@link RelatedItem}. */
class MemoryFileTest {

    @Test
    void numbers_are_kept_in_one_canonical_form() {
        MemoryFile memory = file().metadata("long", 5L).metadata("short", (short) 5).metadata("bigSmall", BigInteger.TEN)
                .metadata("bigLong", BigInteger.ONE.shiftLeft(40)).metadata("float", 0.1f)
                .metadata("decimalExact", new BigDecimal("1.50")).metadata("decimalPrecise", new BigDecimal("0.1000000000000000000001"))
                .metadata("decimalWhole", new BigDecimal("123456789012345678901234567890")).build();

        assertThat(memory.metadata()).containsExactly(Map.entry("long", 5), Map.entry("short", 5), Map.entry("bigSmall", 10),
                Map.entry("bigLong", 1L << 40), Map.entry("float", 0.1), Map.entry("decimalExact", 1.5),
                Map.entry("decimalPrecise", new BigDecimal("0.1000000000000000000001")),
                Map.entry("decimalWhole", new BigDecimal("123456789012345678901234567890.0")));
    }

    @Test
    void values_json_cannot_hold_are_rejected() {
        assertThatThrownBy(() -> file().metadata("nan", Double.NaN).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("metadata.nan is not a finite number");
        assertThatThrownBy(() -> file().metadata("inf", Float.POSITIVE_INFINITY).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> file().metadata("date", new Date()).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.util.Date");
        assertThatThrownBy(() -> file().extra("x", Map.of(1, "a")).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a string");
    }

    @Test
    void a_map_that_contains_itself_is_rejected_instead_of_overflowing_the_stack() {
        Map<String, Object> loop = new HashMap<>();
        loop.put("self", loop);

        assertThatThrownBy(() -> file().metadata("loop", loop).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("more than 64 deep");
    }

    @Test
    void collections_are_deep_copies_that_cannot_be_modified() {
        List<Object> list = new ArrayList<>(List.of("a"));
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("list", list);
        MemoryFile memory = file().metadata("inner", inner).extra("x", list).build();
        list.add("b");

        @SuppressWarnings("unchecked")
        Map<String, Object> copied = (Map<String, Object>) memory.metadata().get("inner");
        assertThat(copied.get("list")).isEqualTo(List.of("a"));
        assertThat(memory.extra().get("x")).isEqualTo(List.of("a"));
        assertThatThrownBy(() -> copied.put("y", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> memory.metadata().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> memory.tags().add("t")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void metadata_may_hold_nulls_and_keeps_its_order() {
        MemoryFile memory = file().metadata("z", null).metadata("a", 1).metadata("m", java.util.Arrays.asList(null, 2))
                .build();

        assertThat(memory.metadata().keySet()).containsExactly("z", "a", "m");
        assertThat(memory.metadata().get("z")).isNull();
    }

    @Test
    void timestamps_are_kept_to_the_millisecond_within_four_digit_years() {
        MemoryFile memory = file().times(Instant.parse("2026-01-01T00:00:00.123456789Z"), Instant.parse("2026-01-02T00:00:00.999999Z"))
                .build();

        assertThat(memory.createdAt()).isEqualTo(Instant.parse("2026-01-01T00:00:00.123Z"));
        assertThat(memory.updatedAt()).isEqualTo(Instant.parse("2026-01-02T00:00:00.999Z"));
        assertThatThrownBy(() -> file().times(Instant.parse("+10000-01-01T00:00:00Z"), Instant.EPOCH).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("created_at must be in the years 0000 to 9999");
        assertThatThrownBy(() -> file().times(Instant.EPOCH, Instant.parse("-0001-12-31T23:59:59Z")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("updated_at");
    }

    @Test
    void invalid_components_are_rejected() {
        assertThatThrownBy(() -> file().id("../x").build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> file().supersedes("a/b").build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> file().version(0).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> file().extra("key", "x").build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("known field 'key'");
        assertThatThrownBy(() -> file().tags(java.util.Arrays.asList("a", null)).build())
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> file().key(null).build()).isInstanceOf(NullPointerException.class);
    }

    @Test
    void a_related_item_needs_an_id_or_a_key_and_a_relationship() {
        assertThatThrownBy(() -> new RelatedItem(Optional.empty(), Optional.empty(), Optional.empty(), "refines",
                Optional.empty(), Map.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RelatedItem.toKey("k", "")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RelatedItem(Optional.of("a\\b"), Optional.empty(), Optional.empty(), "refines",
                Optional.empty(), Map.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RelatedItem(Optional.empty(), Optional.of("k"), Optional.empty(), "refines",
                Optional.empty(), Map.of("relationship", "x"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void to_string_shows_no_body_or_metadata_values() {
        MemoryFile memory = file().metadata("token", "sk-SECRET").body("SECRET body").extra("x", "SECRET").build();

        assertThat(memory.toString()).doesNotContain("SECRET").contains(memory.id()).contains("token");
    }
}
