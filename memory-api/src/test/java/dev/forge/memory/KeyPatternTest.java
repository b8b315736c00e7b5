package dev.forge.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KeyPatternTest {

    @Test
    void shapes_are_recognised() {
        assertThat(KeyPattern.parse("*").kind()).isEqualTo(KeyPattern.Kind.ALL);
        assertThat(KeyPattern.parse("**").kind()).isEqualTo(KeyPattern.Kind.ALL);
        assertThat(KeyPattern.parse("abc").kind()).isEqualTo(KeyPattern.Kind.EXACT);
        assertThat(KeyPattern.parse("user:*").kind()).isEqualTo(KeyPattern.Kind.PREFIX);
        assertThat(KeyPattern.parse("*:name").kind()).isEqualTo(KeyPattern.Kind.SUFFIX);
        assertThat(KeyPattern.parse("*mid*").kind()).isEqualTo(KeyPattern.Kind.CONTAINS);
        assertThat(KeyPattern.parse("a*b*c").kind()).isEqualTo(KeyPattern.Kind.GLOB);
        assertThat(KeyPattern.parse("tag:arch").kind()).isEqualTo(KeyPattern.Kind.TAG);
        assertThat(KeyPattern.parse("tag:arch").tagName()).isEqualTo("arch");
    }

    @Test
    void globs_match_as_documented() {
        KeyPattern glob = KeyPattern.parse("a*b*c");
        assertThat(glob.matchesKey("abc")).isTrue();
        assertThat(glob.matchesKey("a-b-c")).isTrue();
        assertThat(glob.matchesKey("abcx")).isFalse();
        assertThat(glob.matchesKey("xabc")).isFalse();
        assertThat(glob.matchesKey("acb")).isFalse();
        assertThat(KeyPattern.parse("ab*ab").matchesKey("ab")).isFalse();
        assertThat(KeyPattern.parse("ab*ab").matchesKey("abab")).isTrue();
        assertThat(KeyPattern.parse("*:x").matchesKey(":x")).isTrue();
        assertThat(KeyPattern.parse("p:*").matchesKey("p:")).isTrue();
        assertThat(KeyPattern.parse("p:*").literalPrefix()).isEqualTo("p:");
    }

    @Test
    void escaped_stars_and_backslashes_are_literal() {
        KeyPattern pattern = KeyPattern.parse("a\\*b");
        assertThat(pattern.kind()).isEqualTo(KeyPattern.Kind.EXACT);
        assertThat(pattern.matchesKey("a*b")).isTrue();
        assertThat(pattern.matchesKey("axb")).isFalse();
        assertThat(KeyPattern.parse("c:\\\\*").matchesKey("c:\\dir")).isTrue();
        assertThat(KeyPattern.exact("tag:x*").matchesKey("tag:x*")).isTrue();
        assertThat(KeyPattern.parse(KeyPattern.exact("x*\\y").text())).isEqualTo(KeyPattern.exact("x*\\y"));
    }

    @Test
    void exact_patterns_survive_their_text_form_even_for_keys_that_look_like_tag_patterns() {
        for (String key : new String[] {"tag:x", "tag:", "a*b", "back\\slash", "*", "plain"}) {
            KeyPattern exact = KeyPattern.exact(key);
            assertThat(KeyPattern.parse(exact.text())).as(key).isEqualTo(exact);
            assertThat(KeyPattern.parse(exact.text()).matchesKey(key)).as(key).isTrue();
        }
    }

    @Test
    void malformed_patterns_are_rejected() {
        assertThatThrownBy(() -> KeyPattern.parse("")).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> KeyPattern.parse("tag:")).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> KeyPattern.parse("dangling\\")).isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void min_key_length_counts_the_code_points_of_the_literals() {
        assertThat(KeyPattern.parse("*").minKeyLength()).isZero();
        assertThat(KeyPattern.parse("tag:a-long-tag").minKeyLength()).isZero();
        assertThat(KeyPattern.parse("abc").minKeyLength()).isEqualTo(3);
        assertThat(KeyPattern.parse("a*😀*\\*").minKeyLength()).isEqualTo(3);
        assertThat(KeyPattern.parse("*".repeat(50_000) + "é" + "*".repeat(50_000)).minKeyLength()).isEqualTo(1);
        assertThat(KeyPattern.exact("x".repeat(50_000)).minKeyLength()).isEqualTo(50_000);
    }

    @Test
    void long_patterns_are_shortened_in_messages_and_kept_whole_in_their_text_form() {
        String pattern = "x".repeat(50_000) + "*";
        assertThat(KeyPattern.parse(pattern).text()).isEqualTo(pattern);
        assertThat(KeyPattern.parse(pattern).toString()).hasSizeLessThanOrEqualTo(80).startsWith("xxx");
        assertThat(KeyPattern.parse("short*").toString()).isEqualTo("short*");
        assertThatThrownBy(() -> KeyPattern.parse(pattern + "\\")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("(50002 characters)").message().hasSizeLessThan(200);
        assertThatThrownBy(() -> KeyPattern.parse("ab\\")).hasMessage("Key pattern 'ab\\' ends with a lone '\\': write '\\\\' for a backslash.");
    }
}
