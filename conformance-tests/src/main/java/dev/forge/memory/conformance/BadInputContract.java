package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.ValueTooLargeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Bad input gets a clear, typed error and changes nothing; awkward but valid input (every Unicode plane,
 * path-like keys, front-matter-like values, very long lines, large tag and metadata sets) is stored exactly.
 */
public abstract class BadInputContract extends ContractSupport {

    static Stream<String> control_characters() {
        return Stream.of("\u0000", "\u0001", "\t", "\n", "\r", "\u001b", "\u007f", "\u0085", "\u009f");
    }

    static Stream<String> awkward_valid_keys() {
        return Stream.of("../../etc/passwd", "..", ".", "/", "\\", "a/b/c", "C:\\Windows\\x", "con", "NUL.txt", "aux.json",
                " leading space", "trailing space ", "trailing.", ".hidden", "%2e%2e%2f", "~", "~user", "*", "?", "tag:not-a-tag",
                "key with \"quotes\" and 'apostrophes'", "semi;colon", "<html>&amp;", "$(rm -rf /)", "emoji 😀 key",
                "日本語のキー", "ключ", "مفتاح", "e\u0301 combining", "zero\u200bwidth", "\ufeffbom", "#hash", "a:b:c:d");
    }

    @ParameterizedTest
    @MethodSource("control_characters")
    void key_with_a_control_character_is_rejected_and_nothing_is_stored(String control) {
        String key = "bad" + control + "key";
        assertThatThrownBy(() -> provider.set(key, "v", Scope.PROJECT)).isInstanceOf(InvalidKeyException.class)
                .hasMessageContaining("control character");
        assertThat(everything()).isEmpty();
    }

    @Test
    void null_key_scope_query_or_request_throws_null_pointer_exception_and_changes_nothing() {
        put("k", "v");
        provider.set("g", "v", Scope.GLOBAL);
        List<MemoryEntry> before = everything();
        assertThatNullPointerException().isThrownBy(() -> provider.get(null, Scope.PROJECT));
        assertThatNullPointerException().isThrownBy(() -> provider.get("k", null));
        assertThatNullPointerException().isThrownBy(() -> provider.set(null, "v", Scope.PROJECT));
        assertThatNullPointerException().isThrownBy(() -> provider.set("k", "changed", null));
        assertThatNullPointerException().isThrownBy(() -> provider.set(null, "v", Scope.PROJECT, List.of("t"), Map.of()));
        assertThatNullPointerException().isThrownBy(() -> provider.set("k", "changed", null, List.of("t"), Map.of()));
        assertThatNullPointerException().isThrownBy(() -> provider.delete(null, Scope.PROJECT));
        assertThatNullPointerException().isThrownBy(() -> provider.delete("k", null));
        assertThatNullPointerException().isThrownBy(() -> provider.clear(null));
        assertThatNullPointerException().isThrownBy(() -> provider.query(null));
        assertThatNullPointerException().isThrownBy(() -> provider.search(null));
        assertUnchanged(before);
    }

    @Test
    void empty_key_is_rejected_by_every_operation() {
        assertThatThrownBy(() -> provider.set("", "v", Scope.PROJECT)).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> provider.get("", Scope.PROJECT)).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> provider.delete("", Scope.PROJECT)).isInstanceOf(InvalidKeyException.class);
        assertThat(everything()).isEmpty();
    }

    @Test
    void key_of_513_code_points_is_rejected_with_the_limit_in_the_message() {
        String key = "k".repeat(Limits.MAX_KEY_LENGTH + 1);
        assertThatThrownBy(() -> provider.set(key, "v", Scope.PROJECT)).isInstanceOf(InvalidKeyException.class)
                .hasMessageContaining("512");
        assertThat(everything()).isEmpty();
    }

    @Test
    void key_of_512_code_points_is_stored() {
        String key = "k".repeat(Limits.MAX_KEY_LENGTH);
        put(key, "v");
        assertThat(provider.get(key, Scope.PROJECT).orElseThrow().key()).isEqualTo(key);
    }

    @Test
    void key_of_512_supplementary_code_points_counts_code_points_not_chars() {
        String key = "😀".repeat(Limits.MAX_KEY_LENGTH);
        put(key, "v");
        assertThat(provider.get(key, Scope.PROJECT).orElseThrow().key()).isEqualTo(key);
        assertThatThrownBy(() -> provider.set(key + "😀", "v", Scope.PROJECT)).isInstanceOf(InvalidKeyException.class);
    }

    @Test
    void long_keys_sharing_a_long_prefix_stay_distinct() {
        String prefix = "p/".repeat(200);
        List<String> keys = List.of(prefix + "a", prefix + "b", prefix + "A", prefix + "a:");
        keys.forEach(k -> put(k, k.substring(prefix.length())));
        for (String key : keys) {
            assertThat(provider.get(key, Scope.PROJECT).orElseThrow().value()).isEqualTo(key.substring(prefix.length()));
        }
        assertThat(everything()).hasSize(4);
    }

    @Test
    void key_with_an_unpaired_surrogate_is_rejected() {
        assertThatThrownBy(() -> provider.set("half\ud83d", "v", Scope.PROJECT)).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> provider.set("\ude00half", "v", Scope.PROJECT)).isInstanceOf(InvalidKeyException.class);
        assertThat(everything()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("awkward_valid_keys")
    void awkward_but_valid_keys_round_trip_verbatim(String key) {
        put(key, "value for " + key);
        assertThat(provider.get(key, Scope.PROJECT).orElseThrow().value()).isEqualTo("value for " + key);
        assertThat(provider.query(Query.builder().pattern(dev.forge.memory.KeyPattern.exact(key)).build()))
                .extracting(MemoryEntry::key).containsExactly(key);
        assertThat(provider.delete(key, Scope.PROJECT)).isTrue();
        assertThat(everything()).isEmpty();
    }

    @Test
    void path_like_keys_write_nothing_outside_the_store_directory() throws IOException {
        assertThat(list(workDirectory())).containsExactly(storeDirectory);
        // a provider that used keys as paths would write these next to the store, in the work directory
        String absolute = workDirectory().resolve("absolute-escape").toAbsolutePath().toString();
        List<String> keys = List.of("../escape", "../../escape", "/tmp/escape", "..\\escape", "sub/../../escape",
                "../store-sibling/escape", absolute);
        for (String key : keys) {
            put(key, "x");
        }
        assertThat(list(workDirectory())).as("the work directory holds the store directory only").containsExactly(storeDirectory);
        assertThat(keys(everything())).containsExactlyInAnyOrderElementsOf(keys);
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    @Test
    void text_from_every_unicode_plane_round_trips_in_keys_values_tags_and_metadata() {
        String text = "BMP é ñ ß 中文 עברית العربية | SMP 😀 𝄞 𐐷 | SIP 𠀀 𪛖 | TIP 𰀀 | SSP \udb40\udc01 | PUA-A \udb80\udc00 | PUA-B \udbff\udffd | \ufffd";
        put("plane-key " + text, text, List.of("tag " + "😀𠀀"), Map.of("field 𝄞", text));
        MemoryEntry read = provider.get("plane-key " + text, Scope.PROJECT).orElseThrow();
        assertThat(read.value()).isEqualTo(text);
        assertThat(read.tags()).containsExactly("tag 😀𠀀");
        assertThat(read.metadata()).isEqualTo(Map.of("field 𝄞", text));
    }

    @Test
    void composed_and_decomposed_forms_are_distinct_keys() {
        put("caf\u00e9", "composed");
        put("cafe\u0301", "decomposed");
        assertThat(provider.get("caf\u00e9", Scope.PROJECT).orElseThrow().value()).isEqualTo("composed");
        assertThat(provider.get("cafe\u0301", Scope.PROJECT).orElseThrow().value()).isEqualTo("decomposed");
    }

    @Test
    void values_with_front_matter_delimiters_round_trip_without_changing_the_entry() {
        String value = "---\nkey: hijacked\nscope: global\ntags: [evil]\nversion: 99\n---\nbody\n---\n\n---";
        MemoryEntry stored = put("fm", value, List.of("real"), Map.of());
        MemoryEntry read = provider.get("fm", Scope.PROJECT).orElseThrow();
        assertThat(read).isEqualTo(stored);
        assertThat(read.value()).isEqualTo(value);
        assertThat(read.key()).isEqualTo("fm");
        assertThat(read.tags()).containsExactly("real");
        assertThat(read.version()).isEqualTo(1);
        assertThat(provider.get("hijacked", Scope.GLOBAL)).isEmpty();
    }

    @Test
    void whitespace_and_line_endings_in_values_are_preserved_exactly() {
        String value = "  leading\r\nwindows\rold mac\n\ttab\n\n\ntrailing newlines\n\n   ";
        put("ws", value);
        assertThat(provider.get("ws", Scope.PROJECT).orElseThrow().value()).isEqualTo(value);
        put("only-space", "   ");
        assertThat(provider.get("only-space", Scope.PROJECT).orElseThrow().value()).isEqualTo("   ");
    }

    @Test
    void control_characters_and_markup_in_values_are_stored_verbatim() {
        String value = "nul\u0000 esc\u001b[31mred\u001b[0m bell\u0007 \"json\": {\"x\": [1]} <xml attr='1'/> `code` \\escaped\\";
        put("ctl", value);
        assertThat(provider.get("ctl", Scope.PROJECT).orElseThrow().value()).isEqualTo(value);
    }

    @Test
    void a_very_long_single_line_value_round_trips() {
        String value = "x".repeat(150_000) + "end";
        put("long-line", value);
        assertThat(provider.get("long-line", Scope.PROJECT).orElseThrow().value()).isEqualTo(value);
    }

    @Test
    void value_exactly_at_the_size_limit_is_stored() {
        int limit = (int) testableValueLimit();
        String value = "a".repeat(limit);
        put("at-limit", value);
        assertThat(provider.get("at-limit", Scope.PROJECT).orElseThrow().value()).hasSize(limit);
    }

    @Test
    void value_one_byte_over_the_limit_is_rejected_and_the_old_value_kept() {
        long limit = testableValueLimit();
        MemoryEntry old = put("k", "old value");
        String value = "a".repeat((int) limit + 1);
        assertThatThrownBy(() -> put("k", value)).isInstanceOf(ValueTooLargeException.class)
                .hasMessageContaining("k").hasMessageContaining(String.valueOf(limit));
        assertThat(provider.get("k", Scope.PROJECT)).contains(old);
    }

    @Test
    void value_limit_counts_utf8_bytes_not_characters() {
        // '€' is three bytes in UTF-8: fewer characters than the limit, more bytes.
        String value = "€".repeat((int) (testableValueLimit() / 3) + 1);
        assertThatThrownBy(() -> put("euro", value)).isInstanceOf(ValueTooLargeException.class);
        assertThat(everything()).isEmpty();
    }

    @Test
    void every_provider_stores_values_of_at_least_64_kib() {
        assertThat(provider.limits().maxValueBytes()).isGreaterThanOrEqualTo(64 * 1024);
        assertThat(provider.limits().maxKeyLength()).isEqualTo(Limits.MAX_KEY_LENGTH);
    }

    @Test
    void value_with_an_unpaired_surrogate_is_rejected() {
        assertThatThrownBy(() -> put("k", "broken \ud83d text")).isInstanceOf(InvalidEntryException.class)
                .hasMessageContaining("surrogate");
        assertThat(everything()).isEmpty();
    }

    @Test
    void null_value_tags_or_metadata_are_null_pointer_errors_that_store_nothing() {
        assertThatThrownBy(() -> provider.set("k", null, Scope.PROJECT)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> provider.set("k", "v", Scope.PROJECT, null, Map.of())).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> provider.set("k", "v", Scope.PROJECT, List.of(), null)).isInstanceOf(NullPointerException.class);
        assertThat(everything()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " padded", "padded ", "line\nbreak", "nul\u0000"})
    void malformed_tags_are_rejected_and_nothing_is_stored(String tag) {
        assertThatThrownBy(() -> put("k", "v", List.of("fine", tag), Map.of())).isInstanceOf(InvalidEntryException.class);
        assertThat(everything()).isEmpty();
    }

    @Test
    void tag_longer_than_the_limit_is_rejected() {
        String tag = "t".repeat(provider.limits().maxTagLength() + 1);
        assertThatThrownBy(() -> put("k", "v", List.of(tag), Map.of())).isInstanceOf(InvalidEntryException.class);
        assertThat(everything()).isEmpty();
    }

    @Test
    void the_largest_allowed_tag_set_round_trips_in_order() {
        List<String> tags = new ArrayList<>();
        for (int i = provider.limits().maxTags(); i > 0; i--) {
            tags.add("tag-" + i);
        }
        put("many-tags", "v", tags, Map.of());
        assertThat(provider.get("many-tags", Scope.PROJECT).orElseThrow().tags()).containsExactlyElementsOf(tags);
    }

    @Test
    void the_tag_limit_counts_distinct_tags() {
        int maxTags = provider.limits().maxTags();
        assumeTrue(maxTags >= 5, "provider '" + provider.name() + "' allows only " + maxTags + " tags, too few to repeat five");
        List<String> distinct = new ArrayList<>();
        for (int i = 1; i <= maxTags; i++) {
            distinct.add("tag-" + i);
        }
        List<String> withRepeats = new ArrayList<>(distinct);
        withRepeats.addAll(distinct.subList(0, 5));
        assertThat(put("k", "v", withRepeats, Map.of()).tags()).containsExactlyElementsOf(distinct);
        assertThat(provider.get("k", Scope.PROJECT).orElseThrow().tags()).containsExactlyElementsOf(distinct);
    }

    @Test
    void one_tag_more_than_the_limit_is_rejected() {
        List<String> tags = new ArrayList<>();
        for (int i = 0; i <= provider.limits().maxTags(); i++) {
            tags.add("tag-" + i);
        }
        assertThatThrownBy(() -> put("k", "v", tags, Map.of())).isInstanceOf(InvalidEntryException.class)
                .hasMessageContaining(String.valueOf(provider.limits().maxTags()));
        assertThat(everything()).isEmpty();
    }

    @Test
    void a_large_metadata_map_within_the_limit_round_trips() {
        Map<String, Object> metadata = new LinkedHashMap<>();
        for (int i = 0; i < 500; i++) {
            metadata.put("field." + i + " with spaces/and:punct", i % 2 == 0 ? "value " + i : (Object) (long) i);
        }
        metadata.put("", "empty field name");
        put("big-meta", "v", List.of(), metadata);
        assertThat(provider.get("big-meta", Scope.PROJECT).orElseThrow().metadata()).isEqualTo(metadata);
    }

    @Test
    void metadata_over_the_size_limit_is_rejected() {
        Map<String, Object> metadata = Map.of("blob", "m".repeat(provider.limits().maxMetadataBytes()));
        assertThatThrownBy(() -> put("k", "v", List.of(), metadata)).isInstanceOf(InvalidEntryException.class);
        assertThat(everything()).isEmpty();
    }

    @Test
    void metadata_with_a_null_value_is_rejected_naming_the_field() {
        Map<String, Object> metadata = new HashMap<>();
        metadata.put("owner", null);
        assertThatThrownBy(() -> put("k", "v", List.of(), metadata)).isInstanceOf(InvalidEntryException.class)
                .hasMessageContaining("owner");
        assertThat(everything()).isEmpty();
    }

    @Test
    void metadata_that_json_cannot_hold_is_rejected() {
        assertThatThrownBy(() -> put("nan", "v", List.of(), Map.of("x", Double.NaN))).isInstanceOf(InvalidEntryException.class);
        assertThatThrownBy(() -> put("inf", "v", List.of(), Map.of("x", Double.POSITIVE_INFINITY)))
                .isInstanceOf(InvalidEntryException.class);
        assertThatThrownBy(() -> put("obj", "v", List.of(), Map.of("x", new Object()))).isInstanceOf(InvalidEntryException.class);
        assertThatThrownBy(() -> put("huge", "v", List.of(), Map.of("x", java.math.BigInteger.TEN.pow(30))))
                .isInstanceOf(InvalidEntryException.class);
        assertThat(everything()).isEmpty();
    }

    @Test
    void metadata_nested_too_deep_is_rejected() {
        Object nested = "leaf";
        for (int i = 0; i < 40; i++) {
            nested = Map.of("n", nested);
        }
        Object deep = nested;
        assertThatThrownBy(() -> put("deep", "v", List.of(), Map.of("root", deep))).isInstanceOf(InvalidEntryException.class);
        assertThat(everything()).isEmpty();
    }

    @Test
    void a_rejected_overwrite_leaves_the_stored_entry_exactly_as_it_was() {
        MemoryEntry stored = put("k", "v", List.of("keep"), Map.of("keep", true));
        assertThatThrownBy(() -> put("k", "new", List.of(""), Map.of())).isInstanceOf(InvalidEntryException.class);
        assertThatThrownBy(() -> put("k", "new \ud800", List.of(), Map.of())).isInstanceOf(InvalidEntryException.class);
        assertThat(provider.get("k", Scope.PROJECT)).contains(stored);
        assertThat(put("k", "next").version()).isEqualTo(2);
    }
}
