package dev.forge.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.InvalidKeyException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KeysTest {

    private static final Pattern SAFE = Pattern.compile("[a-z0-9_.%^~-]+");

    @Test
    void plain_lower_case_keys_map_to_themselves() {
        assertThat(Keys.toFileName("build-tool_v2.1")).isEqualTo("build-tool_v2.1");
    }

    @Test
    void colon_and_underscore_variants_get_distinct_names() {
        assertThat(Keys.toFileName("a:b")).isNotEqualTo(Keys.toFileName("a_b"));
        assertThat(Keys.toFileName("a:b")).isEqualTo("a%3ab");
    }

    @Test
    void upper_case_is_escaped_so_case_insensitive_file_systems_keep_keys_apart() {
        String upper = Keys.toFileName("Key");
        String lower = Keys.toFileName("key");
        assertThat(upper.toLowerCase(Locale.ROOT)).isNotEqualTo(lower.toLowerCase(Locale.ROOT));
        assertThat(upper).isEqualTo("^key");
    }

    @ParameterizedTest
    @ValueSource(strings = {".", "..", "../x", "a/../../b", "/abs", "C:\\x", "con", "CON", "nul.txt", "lpt1.json", "com0", "LPT0.md",
            "trailing.", ".hidden", "~", "sp ace", "😀", "%41", "^a"})
    void dangerous_keys_become_safe_single_segment_names_that_decode_back(String key) {
        String name = Keys.toFileName(key);
        assertThat(name).matches(SAFE).doesNotStartWith(".").doesNotEndWith(".").isNotEqualTo("..");
        assertThat(name.split("\\.")[0]).isNotIn("con", "nul", "aux", "prn", "lpt1", "com0", "lpt0");
        assertThat(Keys.fromFileName(name)).contains(key);
    }

    @Test
    void long_keys_are_shortened_with_a_digest_and_stay_distinct() {
        String a = "x".repeat(500) + "a";
        String b = "x".repeat(500) + "b";
        assertThat(Keys.toFileName(a)).hasSizeLessThanOrEqualTo(Keys.MAX_FILE_NAME_LENGTH).contains("~");
        assertThat(Keys.toFileName(a)).isNotEqualTo(Keys.toFileName(b));
        assertThat(Keys.fromFileName(Keys.toFileName(a))).isEmpty();
    }

    @Test
    void long_multi_byte_keys_never_exceed_the_name_limit() {
        String key = "日本語".repeat(170);
        assertThat(Keys.toFileName(key).length()).isLessThanOrEqualTo(Keys.MAX_FILE_NAME_LENGTH);
        assertThat(Keys.toFileName(key)).matches(SAFE);
    }

    @Test
    void mapping_is_injective_over_many_random_keys() {
        Random random = new Random(42);
        String alphabet = "aA:_-./\\%^~ é😀0";
        Map<String, String> seen = new HashMap<>();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder key = new StringBuilder();
            int length = 1 + random.nextInt(6);
            for (int j = 0; j < length; j++) {
                key.appendCodePoint(alphabet.codePoints().toArray()[random.nextInt(alphabet.codePointCount(0, alphabet.length()))]);
            }
            String name = Keys.toFileName(key.toString());
            String previous = seen.putIfAbsent(name, key.toString());
            assertThat(previous == null || previous.equals(key.toString()))
                    .as("'%s' and '%s' both map to %s", previous, key, name).isTrue();
            assertThat(Keys.fromFileName(name)).contains(key.toString());
        }
    }

    @Test
    void names_that_no_key_maps_to_decode_to_nothing() {
        for (String name : List.of("A", "a%zz", "a%4", "^A", "a/b", "%41")) {
            assertThat(Keys.fromFileName(name)).as(name).isEmpty();
        }
    }

    @Test
    void validate_names_the_rule_that_was_broken() {
        assertThatThrownBy(() -> Keys.validate("")).isInstanceOf(InvalidKeyException.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> Keys.validate(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("key");
        assertThatThrownBy(() -> Keys.validate("a\nb")).isInstanceOf(InvalidKeyException.class).hasMessageContaining("U+000A");
        assertThatThrownBy(() -> Keys.validate("x".repeat(513))).isInstanceOf(InvalidKeyException.class).hasMessageContaining("513");
        assertThatThrownBy(() -> Keys.validate("\ud800")).isInstanceOf(InvalidKeyException.class).hasMessageContaining("surrogate");
    }

    @Test
    void line_and_paragraph_separators_are_rejected_like_control_characters() {
        assertThatThrownBy(() -> Keys.validate("a\u2028b")).isInstanceOf(InvalidKeyException.class).hasMessageContaining("U+2028");
        assertThatThrownBy(() -> Keys.validate("a\u2029b")).isInstanceOf(InvalidKeyException.class).hasMessageContaining("U+2029");
    }

    @Test
    void compare_keys_orders_by_code_point_like_utf8_bytes() {
        List<String> keys = new java.util.ArrayList<>(List.of("😀", "～", "a", "B", "é", "日本", "a b", "\ud800\udc00", "\uffff"));
        keys.sort(Keys::compareKeys);
        List<String> byBytes = new java.util.ArrayList<>(keys);
        byBytes.sort((x, y) -> java.util.Arrays.compareUnsigned(x.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                y.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertThat(keys).containsExactlyElementsOf(byBytes);
        assertThat(Keys.compareKeys("～", "😀")).isNegative();
        assertThat(Keys.compareKeys("a", "ab")).isNegative();
        assertThat(Keys.compareKeys("same", "same")).isZero();
    }

    @Test
    void abbreviate_keeps_short_keys_and_never_splits_a_surrogate_pair() {
        assertThat(Keys.abbreviate("short")).isEqualTo("short");
        String abbreviated = Keys.abbreviate("a".repeat(76) + "😀".repeat(10));
        assertThat(abbreviated).endsWith("...");
        assertThat(dev.forge.memory.EntryRules.firstUnpairedSurrogate(abbreviated)).isEqualTo(-1);
    }
}
