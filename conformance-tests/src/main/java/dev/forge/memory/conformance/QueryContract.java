package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.EntryRef;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.KeyPattern;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Query.Order;
import dev.forge.memory.Scope;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Query patterns, filters, order, limit and offset.
 *
 * <p>Backends that translate patterns into SQL, Cypher or Lucene queries must treat every character of a key
 * literally; several tests use keys full of {@code LIKE}, regex and glob metacharacters to catch that.
 */
public abstract class QueryContract extends ContractSupport {

    // ---------------------------------------------------------------- patterns

    @Test
    void star_selects_every_entry_in_every_scope() {
        put("b", "v");
        put("a:x", "v");
        provider.set("s", "v", Scope.SESSION);
        provider.set("g", "v", Scope.GLOBAL);
        assertThat(refs(provider.query(Query.of("*")))).containsExactly(
                EntryRef.of("a:x", Scope.PROJECT), EntryRef.of("b", Scope.PROJECT),
                EntryRef.of("g", Scope.GLOBAL), EntryRef.of("s", Scope.SESSION));
    }

    @Test
    void prefix_pattern_selects_keys_starting_with_the_prefix() {
        seed("user:alice", "user:bob", "user:", "users:carol", "xuser:dave", "user", "us");
        assertThat(matching("user:*")).containsExactly("user:", "user:alice", "user:bob");
    }

    @Test
    void suffix_pattern_selects_keys_ending_with_the_suffix() {
        seed("doc:draft", ":draft", "draft", "doc:drafts", "doc:draft:old", "docdraft");
        assertThat(matching("*:draft")).containsExactly(":draft", "doc:draft");
    }

    @Test
    void contains_pattern_selects_keys_holding_the_literal() {
        seed("cache", "l2-cache-size", "cachemiss", "precache", "cach", "ca-che", "cach-e");
        assertThat(matching("*cache*")).containsExactly("cache", "cachemiss", "l2-cache-size", "precache");
    }

    @Test
    void glob_with_several_stars_matches_its_literals_in_order() {
        seed("abc", "a-b-c", "axxbyyc", "abcbc", "acb", "ab", "abcd", "xabc", "cba", "aba", "abba", "ab-ba", "a", "aa");
        assertThat(matching("a*b*c")).containsExactly("a-b-c", "abc", "abcbc", "axxbyyc");
        // the anchored literals must not overlap: "aba" starts with "ab" and ends with "ba" but is too short
        assertThat(matching("ab*ba")).containsExactly("ab-ba", "abba");
        assertThat(matching("*a*a*")).containsExactly("aa", "ab-ba", "aba", "abba");
        assertThat(matching("a**c")).containsExactly("a-b-c", "abc", "abcbc", "axxbyyc");
    }

    @Test
    void pattern_without_star_selects_exactly_that_key() {
        seed("project:settings", "project:settings2", "project:setting", "xproject:settings", "Project:settings");
        assertThat(matching("project:settings")).containsExactly("project:settings");
        assertThat(matching("project:absent")).isEmpty();
    }

    @Test
    void escaped_star_and_backslash_match_literally() {
        seed("rate*limit", "rate-limit", "rate**limit", "ratelimit", "rate*", "dir\\file", "dir\\\\file", "dir/file", "dirfile");
        assertThat(matching("rate\\*limit")).containsExactly("rate*limit");
        assertThat(matching("rate\\**")).containsExactly("rate*", "rate**limit", "rate*limit");
        assertThat(matching("*\\*\\*limit")).containsExactly("rate**limit");
        assertThat(matching("dir\\\\file")).containsExactly("dir\\file");
        assertThat(matching("dir\\\\*")).containsExactly("dir\\\\file", "dir\\file");
        assertThat(provider.query(Query.builder().pattern(KeyPattern.exact("rate*")).build()))
                .extracting(MemoryEntry::key).containsExactly("rate*");
    }

    @Test
    void tag_pattern_selects_entries_carrying_the_tag_whatever_their_key() {
        put("note:1", "v", List.of("urgent"), Map.of());
        put("zz", "v", List.of("later", "urgent"), Map.of());
        put("note:2", "v", List.of("later"), Map.of());
        put("tag:urgent", "v", List.of(), Map.of());
        provider.set("s", "v", Scope.SESSION, List.of("urgent"), Map.of());
        assertThat(refs(provider.query(Query.of("tag:urgent")))).containsExactly(
                EntryRef.of("note:1", Scope.PROJECT), EntryRef.of("s", Scope.SESSION), EntryRef.of("zz", Scope.PROJECT));
        assertThat(matching("tag:nobody-has-this")).isEmpty();
    }

    @Test
    void tags_are_matched_whole_and_case_sensitively() {
        put("exact", "v", List.of("urgent"), Map.of());
        put("upper", "v", List.of("Urgent"), Map.of());
        put("longer", "v", List.of("urgent-ish", "non-urgent", "urgently"), Map.of());
        put("shorter", "v", List.of("urgen"), Map.of());
        put("comma", "v", List.of("urgent,later"), Map.of());
        put("quoted", "v", List.of("\"urgent\""), Map.of());
        put("spaced", "v", List.of("urgent later"), Map.of());
        assertThat(matching("tag:urgent")).containsExactly("exact");
        assertThat(keys(provider.query(Query.builder().tag("urgent").build()))).containsExactly("exact");
        assertThat(matching("tag:Urgent")).containsExactly("upper");
        assertThat(matching("tag:urgent,later")).containsExactly("comma");
        assertThat(keys(provider.query(Query.builder().tag("urgent later").build()))).containsExactly("spaced");
        assertThat(keys(provider.query(Query.builder().tag("\"urgent\"").build()))).containsExactly("quoted");
    }

    @Test
    void exact_pattern_selects_a_key_that_starts_with_the_tag_prefix() {
        put("tag:urgent", "v");
        put("tag:urgent2", "v");
        put("tagged", "v", List.of("urgent"), Map.of());
        assertThat(provider.query(Query.builder().pattern(KeyPattern.exact("tag:urgent")).build()))
                .extracting(MemoryEntry::key).containsExactly("tag:urgent");
        assertThat(matching("tag:urgent")).containsExactly("tagged");
    }

    @Test
    void queries_follow_overwrites_and_deletes() {
        put("a", "v", List.of("urgent"), Map.of("status", "open"));
        put("b", "v", List.of("urgent"), Map.of("status", "open"));
        put("c", "v", List.of("urgent"), Map.of("status", "open"));
        put("a", "v", List.of("done"), Map.of("status", "closed"));
        provider.delete("b", Scope.PROJECT);
        assertThat(matching("tag:urgent")).containsExactly("c");
        assertThat(matching("tag:done")).containsExactly("a");
        assertThat(keys(provider.query(Query.builder().metadata("status", "open").build()))).containsExactly("c");
        assertThat(matching("*")).containsExactly("a", "c");
        assertThat(matching("b")).isEmpty();
    }

    @Test
    void patterns_are_case_sensitive() {
        seed("readme", "Readme", "README", "user:Alice", "USER:bob", "café", "CAFÉ");
        assertThat(matching("readme")).containsExactly("readme");
        assertThat(matching("user:*")).containsExactly("user:Alice");
        assertThat(matching("*alice*")).isEmpty();
        assertThat(matching("*ME")).containsExactly("README");
        assertThat(matching("caf*")).containsExactly("café");
        assertThat(matching("*É")).containsExactly("CAFÉ");
    }

    @Test
    void like_wildcards_in_keys_match_literally() {
        seed("100%", "100% done", "1000", "100", "1005", "a_b", "axb", "a__b", "ab", "a%b");
        assertThat(matching("100%")).containsExactly("100%");
        assertThat(matching("100%*")).containsExactly("100%", "100% done");
        assertThat(matching("*%*")).containsExactly("100%", "100% done", "a%b");
        assertThat(matching("a_b")).containsExactly("a_b");
        assertThat(matching("a_*")).containsExactly("a__b", "a_b");
        assertThat(matching("*_b")).containsExactly("a__b", "a_b");
    }

    @Test
    void regex_and_glob_metacharacters_in_keys_match_literally() {
        seed("a.b", "axb", "[abc]", "[abc]x", "a", "b", "a?c", "abc", "f(x+y)", "fxxy", "fxy", "a|b", "^start$", "start",
                "{1,2}", "1", "a+", "aa", ".*", "x");
        assertThat(matching("a.b")).containsExactly("a.b");
        assertThat(matching("*.b")).containsExactly("a.b");
        assertThat(matching("[abc]*")).containsExactly("[abc]", "[abc]x");
        assertThat(matching("a?c")).containsExactly("a?c");
        assertThat(matching("a?*")).containsExactly("a?c");
        assertThat(matching("*(x+y)*")).containsExactly("f(x+y)");
        assertThat(matching("a|b")).containsExactly("a|b");
        assertThat(matching("^start$")).containsExactly("^start$");
        assertThat(matching("{1,2}")).containsExactly("{1,2}");
        assertThat(matching("a+")).containsExactly("a+");
        assertThat(matching(".\\*")).containsExactly(".*");
    }

    @Test
    void quotes_in_keys_match_literally() {
        seed("it's", "it's here", "its", "say \"hi\"", "say hi", "a';DROP TABLE memories;--", "`tick`", "tick");
        assertThat(matching("it's*")).containsExactly("it's", "it's here");
        assertThat(matching("say \"hi\"")).containsExactly("say \"hi\"");
        assertThat(matching("*\"hi\"*")).containsExactly("say \"hi\"");
        assertThat(matching("a';DROP TABLE memories;--")).containsExactly("a';DROP TABLE memories;--");
        assertThat(matching("`*`")).containsExactly("`tick`");
        assertThat(everything()).hasSize(8);
    }

    @Test
    void non_ascii_keys_match_by_pattern() {
        seed("日本語", "日本", "中文", "smile😀", "😀first", "😀", "naïve", "naive", "über:alles", "uber:alles");
        assertThat(matching("日本*")).containsExactly("日本", "日本語");
        assertThat(matching("*😀")).containsExactly("smile😀", "😀");
        assertThat(matching("😀*")).containsExactly("😀", "😀first");
        assertThat(matching("*ï*")).containsExactly("naïve");
        assertThat(matching("über:*")).containsExactly("über:alles");
        assertThat(matching("中文")).containsExactly("中文");
    }

    // ---------------------------------------------------------------- long patterns

    /**
     * A pattern is a filter, not a key, so any length is a valid query and gets an exact answer: one whose literals
     * add up to more code points than the longest key ({@link Limits#MAX_KEY_LENGTH}) selects nothing, and a run of
     * stars of any length is one star. Backends must not pass such a pattern on in a form they refuse (SQLite's GLOB
     * and LIKE stop at 50,000 bytes).
     */
    @Test
    void patterns_of_fifty_thousand_characters_are_answered_exactly() {
        String longest = "*".repeat(Limits.MAX_KEY_LENGTH);
        String metacharacters = "[" + "é".repeat(Limits.MAX_KEY_LENGTH - 3) + "?%";
        String wide = "😀".repeat(Limits.MAX_KEY_LENGTH); // 2,048 bytes of UTF-8
        seed("a", "ab", "b", "éa", longest, metacharacters, wide);
        List<String> all = List.of(longest, metacharacters, "a", "ab", "b", "éa", wide);
        for (String literal : List.of("x".repeat(50_000), "é".repeat(50_000), "a".repeat(Limits.MAX_KEY_LENGTH + 1))) {
            for (String pattern : List.of(literal, literal + "*", "*" + literal, "*" + literal + "*", "a*" + literal + "*b",
                    "*a*" + literal, "tag:" + literal)) {
                assertThat(matching(pattern)).as("the pattern %s... of %d characters", pattern.substring(0, 8), pattern.length())
                        .isEmpty();
            }
            assertThat(keys(provider.query(Query.builder().tag(literal).build()))).as("a tag filter of %d characters",
                    literal.length()).isEmpty();
            assertThat(keys(provider.query(Query.builder().metadata("m", literal).build()))).as("a metadata filter of %d "
                    + "characters", literal.length()).isEmpty();
        }
        String stars = "*".repeat(50_000);
        assertThat(matching(stars)).containsExactlyElementsOf(all);
        assertThat(matching(stars + "a" + stars)).containsExactly("a", "ab", "éa");
        assertThat(matching("a" + stars + "b")).containsExactly("ab");
        assertThat(matching(stars + "é" + stars + "%")).containsExactly(metacharacters);
        // the longest key, each of its characters escaped: patterns twice as long as any key that still match one
        String escaped = "\\*".repeat(Limits.MAX_KEY_LENGTH);
        assertThat(matching(escaped)).containsExactly(longest);
        assertThat(matching("*" + escaped)).containsExactly(longest);
        assertThat(matching(escaped + "*")).containsExactly(longest);
        assertThat(matching("\\*" + stars + escaped.substring(2))).containsExactly(longest);
        assertThat(matching("*" + escaped + "\\*")).as("one character more than the longest key").isEmpty();
        assertThat(matching(metacharacters.substring(0, 200) + "*" + metacharacters.substring(200))).containsExactly(metacharacters);
        // the longest key in bytes, by patterns of 2,000 bytes and more
        assertThat(matching(wide)).containsExactly(wide);
        assertThat(matching("😀".repeat(300) + "a*")).isEmpty();
        assertThat(matching(wide.substring(2) + "*" + "😀")).containsExactly(wide);
        assertThat(matching(wide.substring(0, wide.length() - 2) + "*")).containsExactly(wide);
        assertThat(matching("*" + wide.substring(2))).containsExactly(wide);
        assertThat(matching("*" + wide + "*")).containsExactly(wide);
    }

    @Test
    void a_malformed_pattern_of_fifty_thousand_characters_is_refused_without_echoing_it() {
        String pattern = "x".repeat(50_000) + "\\";
        assertThatThrownBy(() -> provider.query(Query.of(pattern))).isInstanceOf(InvalidRequestException.class)
                .satisfies(e -> assertThat(e.getMessage()).as("the message").hasSizeLessThan(300).contains("\\\\"));
    }

    // ---------------------------------------------------------------- scopes

    @Test
    void query_looks_only_in_the_given_scopes() {
        seedAllScopes();
        assertThat(refs(provider.query(Query.of("*", Scope.PROJECT)))).containsExactly(
                EntryRef.of("k", Scope.PROJECT), EntryRef.of("p-only", Scope.PROJECT));
        assertThat(refs(provider.query(Query.of("*", Scope.SESSION, Scope.GLOBAL)))).containsExactly(
                EntryRef.of("g-only", Scope.GLOBAL), EntryRef.of("k", Scope.SESSION),
                EntryRef.of("k", Scope.GLOBAL), EntryRef.of("s-only", Scope.SESSION));
        assertThat(refs(provider.query(Query.of("k", Scope.GLOBAL)))).containsExactly(EntryRef.of("k", Scope.GLOBAL));
    }

    @Test
    void query_without_scopes_looks_in_every_scope() {
        seedAllScopes();
        List<EntryRef> expected = List.of(EntryRef.of("k", Scope.SESSION), EntryRef.of("k", Scope.PROJECT), EntryRef.of("k", Scope.GLOBAL));
        assertThat(refs(provider.query(Query.of("k")))).containsExactlyElementsOf(expected);
        assertThat(refs(provider.query(Query.builder().pattern("k").scopes().build()))).containsExactlyElementsOf(expected);
        assertThat(everything()).hasSize(6);
    }

    @Test
    void queries_never_see_other_projects_or_sessions() {
        MemoryProvider otherProject = open("project-b", "session-2");
        MemoryProvider otherSession = open(PROJECT, "session-2");
        List<String> tags = List.of("shared");
        Map<String, Object> metadata = Map.of("team", "core");
        put("shared:mine", "v", tags, metadata);
        otherProject.set("shared:other-project", "v", Scope.PROJECT, tags, metadata);
        otherProject.set("shared:other-project-session", "v", Scope.SESSION, tags, metadata);
        otherProject.set("shared:global", "v", Scope.GLOBAL, tags, metadata);
        otherSession.set("shared:other-session", "v", Scope.SESSION, tags, metadata);
        otherSession.set("shared:same-project", "v", Scope.PROJECT, tags, metadata);

        List<String> visible = List.of("shared:global", "shared:mine", "shared:same-project");
        assertThat(matching("*")).containsExactlyElementsOf(visible);
        assertThat(matching("shared:*")).containsExactlyElementsOf(visible);
        assertThat(matching("*other*")).isEmpty();
        assertThat(matching("shared:other-project")).isEmpty();
        assertThat(matching("tag:shared")).containsExactlyElementsOf(visible);
        assertThat(keys(provider.query(Query.builder().tag("shared").metadata("team", "core").build())))
                .containsExactlyElementsOf(visible);
    }

    // ---------------------------------------------------------------- filters

    @Test
    void tag_filter_requires_every_tag() {
        put("ab", "v", List.of("a", "b"), Map.of());
        put("a", "v", List.of("a"), Map.of());
        put("b", "v", List.of("b"), Map.of());
        put("cba", "v", List.of("c", "b", "a"), Map.of());
        put("none", "v");
        assertThat(keys(provider.query(Query.builder().tag("a").tag("b").build()))).containsExactly("ab", "cba");
        assertThat(keys(provider.query(Query.builder().tags(List.of("b", "a")).build()))).containsExactly("ab", "cba");
        assertThat(keys(provider.query(Query.builder().tag("a").build()))).containsExactly("a", "ab", "cba");
        assertThat(keys(provider.query(Query.builder().tag("a").tag("missing").build()))).isEmpty();
    }

    @Test
    void metadata_filter_matches_equal_strings_and_skips_missing_fields() {
        put("java-1", "v", List.of(), Map.of("lang", "java"));
        put("java-2", "v", List.of(), Map.of("lang", "java", "extra", 1));
        put("kotlin", "v", List.of(), Map.of("lang", "kotlin"));
        put("upper", "v", List.of(), Map.of("lang", "Java"));
        put("prefix", "v", List.of(), Map.of("lang", "javascript"));
        put("other-field", "v", List.of(), Map.of("language", "java"));
        put("none", "v");
        assertThat(keys(provider.query(Query.builder().metadata("lang", "java").build()))).containsExactly("java-1", "java-2");
        assertThat(keys(provider.query(Query.builder().metadata("lang", "java").metadata("extra", 1).build())))
                .containsExactly("java-2");
        assertThat(keys(provider.query(Query.builder().metadata("missing", "java").build()))).isEmpty();
    }

    @Test
    void metadata_filter_matches_whole_numbers_whatever_their_java_type() {
        put("int", "v", List.of(), Map.of("priority", 2));
        put("long", "v", List.of(), Map.of("priority", 2L));
        put("short", "v", List.of(), Map.of("priority", (short) 2));
        put("twenty", "v", List.of(), Map.of("priority", 20));
        put("negative", "v", List.of(), Map.of("priority", -2));
        put("fraction", "v", List.of(), Map.of("priority", 2.5));
        put("big", "v", List.of(), Map.of("priority", Long.MAX_VALUE));
        assertThat(keys(provider.query(Query.builder().metadata("priority", 2).build()))).containsExactly("int", "long", "short");
        assertThat(keys(provider.query(Query.builder().metadata("priority", 2L).build()))).containsExactly("int", "long", "short");
        assertThat(keys(provider.query(Query.builder().metadata("priority", -2).build()))).containsExactly("negative");
        assertThat(keys(provider.query(Query.builder().metadata("priority", 2.5).build()))).containsExactly("fraction");
        assertThat(keys(provider.query(Query.builder().metadata("priority", Long.MAX_VALUE).build()))).containsExactly("big");
    }

    @Test
    void metadata_filter_compares_numbers_by_value_whether_whole_or_decimal() {
        put("whole-two", "v", List.of(), Map.of("n", 2));
        put("decimal-two", "v", List.of(), Map.of("n", 2.0));
        put("string-two", "v", List.of(), Map.of("n", "2"));
        put("true", "v", List.of(), Map.of("n", true));
        put("two-and-a-half", "v", List.of(), Map.of("n", 2.5));
        put("twenty", "v", List.of(), Map.of("n", 20.0));
        put("minus-two", "v", List.of(), Map.of("n", -2.0));
        put("whole-range", "v", List.of(), Map.of("n", List.of(1, 2)));
        put("decimal-range", "v", List.of(), Map.of("n", List.of(1.0, 2.0)));
        List<String> twos = List.of("decimal-two", "whole-two");
        assertThat(keys(provider.query(Query.builder().metadata("n", 2).build()))).containsExactlyElementsOf(twos);
        assertThat(keys(provider.query(Query.builder().metadata("n", 2L).build()))).containsExactlyElementsOf(twos);
        assertThat(keys(provider.query(Query.builder().metadata("n", 2.0).build()))).containsExactlyElementsOf(twos);
        assertThat(keys(provider.query(Query.builder().metadata("n", 2.0f).build()))).containsExactlyElementsOf(twos);
        assertThat(keys(provider.query(Query.builder().metadata("n", -2).build()))).containsExactly("minus-two");
        assertThat(keys(provider.query(Query.builder().metadata("n", 20).build()))).containsExactly("twenty");
        assertThat(keys(provider.query(Query.builder().metadata("n", 2.5).build()))).containsExactly("two-and-a-half");
        // by value, but still typed: a number never equals a string or a boolean
        assertThat(keys(provider.query(Query.builder().metadata("n", "2").build()))).containsExactly("string-two");
        assertThat(keys(provider.query(Query.builder().metadata("n", true).build()))).containsExactly("true");
        // numbers inside lists are JSON numbers too
        assertThat(keys(provider.query(Query.builder().metadata("n", List.of(1, 2)).build())))
                .containsExactly("decimal-range", "whole-range");
        assertThat(keys(provider.query(Query.builder().metadata("n", List.of(1.0, 2.0)).build())))
                .containsExactly("decimal-range", "whole-range");
        // matching changes nothing stored: each entry keeps the number as it was written
        assertThat(provider.get("decimal-two", Scope.PROJECT).orElseThrow().metadata().get("n")).isEqualTo(2.0);
        assertThat(provider.get("whole-two", Scope.PROJECT).orElseThrow().metadata().get("n")).isEqualTo(2L);
    }

    @Test
    void metadata_filter_keeps_booleans_numbers_and_strings_apart() {
        put("true", "v", List.of(), Map.of("flag", true));
        put("false", "v", List.of(), Map.of("flag", false));
        put("string-true", "v", List.of(), Map.of("flag", "true"));
        put("one", "v", List.of(), Map.of("flag", 1));
        put("zero", "v", List.of(), Map.of("flag", 0));
        put("string-one", "v", List.of(), Map.of("flag", "1"));
        assertThat(keys(provider.query(Query.builder().metadata("flag", true).build()))).containsExactly("true");
        assertThat(keys(provider.query(Query.builder().metadata("flag", false).build()))).containsExactly("false");
        assertThat(keys(provider.query(Query.builder().metadata("flag", "true").build()))).containsExactly("string-true");
        assertThat(keys(provider.query(Query.builder().metadata("flag", 1).build()))).containsExactly("one");
        assertThat(keys(provider.query(Query.builder().metadata("flag", 0).build()))).containsExactly("zero");
        assertThat(keys(provider.query(Query.builder().metadata("flag", "1").build()))).containsExactly("string-one");
    }

    @Test
    void metadata_filter_compares_nested_values_whole() {
        put("owner-full", "v", List.of(), Map.of("owner", Map.of("team", "core", "size", 3)));
        put("owner-partial", "v", List.of(), Map.of("owner", Map.of("team", "core")));
        put("owner-more", "v", List.of(), Map.of("owner", Map.of("team", "core", "size", 3, "lead", "ann")));
        put("owner-flat", "v", List.of(), Map.of("owner", "core"));
        put("dotted", "v", List.of(), Map.of("owner.team", "core"));
        put("labels-ab", "v", List.of(), Map.of("labels", List.of("a", "b")));
        put("labels-ba", "v", List.of(), Map.of("labels", List.of("b", "a")));
        put("labels-abc", "v", List.of(), Map.of("labels", List.of("a", "b", "c")));
        put("labels-a", "v", List.of(), Map.of("labels", "a"));
        assertThat(keys(provider.query(Query.builder().metadata("owner", Map.of("size", 3L, "team", "core")).build())))
                .containsExactly("owner-full");
        assertThat(keys(provider.query(Query.builder().metadata("owner", Map.of("team", "core")).build())))
                .containsExactly("owner-partial");
        // a dotted name is one top-level field, not a path into nested values
        assertThat(keys(provider.query(Query.builder().metadata("owner.team", "core").build()))).containsExactly("dotted");
        assertThat(keys(provider.query(Query.builder().metadata("labels", List.of("a", "b")).build()))).containsExactly("labels-ab");
        assertThat(keys(provider.query(Query.builder().metadata("labels", "a").build()))).containsExactly("labels-a");
    }

    @Test
    void updated_after_and_before_are_strict_millisecond_bounds() {
        MemoryEntry a = put("a", "v");
        MemoryEntry b = put("b", "v");
        clock.advance(Duration.ofHours(1));
        MemoryEntry c = put("c", "v");
        assertThat(b.updatedAt()).as("successive writes get increasing timestamps").isAfter(a.updatedAt());

        assertThat(keys(provider.query(Query.builder().updatedAfter(a.updatedAt()).build()))).containsExactly("b", "c");
        assertThat(keys(provider.query(Query.builder().updatedBefore(b.updatedAt()).build()))).containsExactly("a");
        assertThat(keys(provider.query(Query.builder().updatedBefore(c.updatedAt()).build()))).containsExactly("a", "b");
        assertThat(keys(provider.query(Query.builder().updatedAfter(a.updatedAt()).updatedBefore(c.updatedAt()).build())))
                .containsExactly("b");
        assertThat(keys(provider.query(Query.builder()
                .updatedAfter(c.updatedAt().minusMillis(1)).updatedBefore(c.updatedAt().plusMillis(1)).build())))
                .containsExactly("c");
        assertThat(keys(provider.query(Query.builder().updatedAfter(c.updatedAt()).build()))).isEmpty();
        assertThat(keys(provider.query(Query.builder().updatedAfter(b.updatedAt()).updatedBefore(c.updatedAt()).build()))).isEmpty();
    }

    @Test
    void time_filters_at_the_ends_of_time_select_everything_or_nothing() {
        put("a", "v");
        clock.advance(Duration.ofHours(1));
        put("b", "v");
        // Instant.MIN and MAX lie far outside what any backend stores (epoch milliseconds, ISO years 0001-9999):
        // a filter there must still be answered, as the filter it means, not fail on an overflow.
        assertThat(keys(provider.query(Query.builder().updatedAfter(Instant.MIN).build()))).containsExactly("a", "b");
        assertThat(keys(provider.query(Query.builder().updatedBefore(Instant.MAX).build()))).containsExactly("a", "b");
        assertThat(keys(provider.query(Query.builder().updatedAfter(Instant.MIN).updatedBefore(Instant.MAX).build())))
                .containsExactly("a", "b");
        assertThat(keys(provider.query(Query.builder().updatedAfter(Instant.MAX).build()))).isEmpty();
        assertThat(keys(provider.query(Query.builder().updatedBefore(Instant.MIN).build()))).isEmpty();
        assertThat(keys(provider.query(Query.builder().updatedAfter(Instant.parse("9999-12-31T23:59:59.999Z")).build())))
                .isEmpty();
        assertThat(keys(provider.query(Query.builder().updatedBefore(Instant.parse("0001-01-01T00:00:00Z")).build())))
                .isEmpty();
    }

    @Test
    void time_filters_use_the_last_update_not_creation() {
        put("a", "v");
        clock.advance(Duration.ofMinutes(1));
        MemoryEntry b = put("b", "v");
        clock.advance(Duration.ofMinutes(1));
        put("a", "changed");
        assertThat(keys(provider.query(Query.builder().updatedAfter(b.updatedAt()).build()))).containsExactly("a");
        assertThat(keys(provider.query(Query.builder().updatedBefore(b.updatedAt()).build()))).isEmpty();
    }

    @Test
    void every_condition_must_hold() {
        Instant since = clock.peek();
        clock.advance(Duration.ofMinutes(1));
        List<String> tags = List.of("t");
        Map<String, Object> metadata = Map.of("m", "yes");
        put("doc:match", "v", tags, metadata);
        put("other:pattern", "v", tags, metadata);
        provider.set("doc:session", "v", Scope.SESSION, tags, metadata);
        put("doc:no-tag", "v", List.of("u"), metadata);
        put("doc:no-metadata", "v", tags, Map.of("m", "no"));
        clock.rewind(Duration.ofMinutes(2));
        put("doc:too-old", "v", tags, metadata);
        Query query = Query.builder().pattern("doc:*").scopes(Scope.PROJECT).tag("t").metadata("m", "yes")
                .updatedAfter(since).build();
        assertThat(keys(provider.query(query))).containsExactly("doc:match");
    }

    // ---------------------------------------------------------------- order

    @Test
    void key_orders_sort_by_key_then_scope() {
        provider.set("k", "v", Scope.GLOBAL);
        put("m", "v");
        provider.set("k", "v", Scope.SESSION);
        provider.set("z", "v", Scope.SESSION);
        put("k", "v");
        provider.set("a", "v", Scope.GLOBAL);
        List<EntryRef> ascending = List.of(EntryRef.of("a", Scope.GLOBAL), EntryRef.of("k", Scope.SESSION),
                EntryRef.of("k", Scope.PROJECT), EntryRef.of("k", Scope.GLOBAL), EntryRef.of("m", Scope.PROJECT),
                EntryRef.of("z", Scope.SESSION));
        assertThat(refs(provider.query(Query.of("*")))).as("KEY is the default order").containsExactlyElementsOf(ascending);
        assertThat(refs(provider.query(Query.builder().order(Order.KEY).build()))).containsExactlyElementsOf(ascending);
        assertThat(refs(provider.query(Query.builder().order(Order.KEY_DESC).build())))
                .containsExactlyElementsOf(reversed(ascending));
    }

    @Test
    void key_order_is_code_point_order() {
        // Code point order is UTF-8 byte order, as SQL BINARY collations and byte-sorted indexes give. It differs
        // from String.compareTo (UTF-16 code units) above U+D7FF: "😀" (U+1F600) and "𠀀" (U+20000) are surrogate
        // pairs, which String.compareTo sorts before U+E000, "～" (U+FF5E) and U+FFFD.
        List<String> ordered = List.of("B", "Z", "a", "a b", "aa", "b", "~", "é", "日本", "\ue000", "～", "\ufffd", "😀",
                "😀a", "𠀀");
        // all at one instant, so that the updated orders fall back on key order for every entry
        clock.freezeAt(clock.peek());
        try {
            for (String key : reversed(ordered)) {
                put(key, "v");
            }
        } finally {
            clock.resume();
        }
        assertThat(matching("*")).containsExactlyElementsOf(ordered);
        assertThat(keys(provider.query(Query.builder().order(Order.KEY_DESC).build()))).containsExactlyElementsOf(reversed(ordered));
        assertThat(keys(provider.query(Query.builder().order(Order.UPDATED_DESC).build()))).containsExactlyElementsOf(ordered);
        assertThat(keys(provider.query(Query.builder().order(Order.UPDATED_ASC).build()))).containsExactlyElementsOf(ordered);
        assertThat(keys(provider.query(Query.builder().offset(9).limit(3).build()))).containsExactlyElementsOf(ordered.subList(9, 12));
    }

    @Test
    void updated_orders_follow_the_last_update() {
        put("c", "v");
        clock.advance(Duration.ofMinutes(1));
        put("a", "v");
        clock.advance(Duration.ofMinutes(1));
        provider.set("b", "v", Scope.GLOBAL);
        clock.advance(Duration.ofMinutes(1));
        put("d", "v");
        clock.advance(Duration.ofMinutes(1));
        put("c", "changed");
        assertThat(keys(provider.query(Query.builder().order(Order.UPDATED_DESC).build()))).containsExactly("c", "d", "b", "a");
        assertThat(keys(provider.query(Query.builder().order(Order.UPDATED_ASC).build()))).containsExactly("a", "b", "d", "c");
    }

    @Test
    void updated_order_ties_are_broken_by_key_then_scope() {
        Instant tie = clock.peek().plus(Duration.ofHours(1));
        writeAt(tie.plus(Duration.ofMinutes(1)), "late", Scope.PROJECT);
        MemoryEntry first = writeAt(tie, "b", Scope.PROJECT);
        List<MemoryEntry> tied = List.of(first, writeAt(tie, "a", Scope.GLOBAL), writeAt(tie, "c", Scope.PROJECT),
                writeAt(tie, "a", Scope.SESSION), writeAt(tie, "b", Scope.SESSION));
        writeAt(tie.minus(Duration.ofMinutes(1)), "early", Scope.PROJECT);
        assertThat(tied).as("writes at one instant get one timestamp")
                .allSatisfy(e -> assertThat(e.updatedAt()).isEqualTo(first.updatedAt()));

        List<EntryRef> tiesInOrder = List.of(EntryRef.of("a", Scope.SESSION), EntryRef.of("a", Scope.GLOBAL),
                EntryRef.of("b", Scope.SESSION), EntryRef.of("b", Scope.PROJECT), EntryRef.of("c", Scope.PROJECT));
        List<EntryRef> descending = new ArrayList<>();
        descending.add(EntryRef.of("late", Scope.PROJECT));
        descending.addAll(tiesInOrder);
        descending.add(EntryRef.of("early", Scope.PROJECT));
        assertThat(refs(provider.query(Query.builder().order(Order.UPDATED_DESC).build()))).containsExactlyElementsOf(descending);
        List<EntryRef> ascending = new ArrayList<>();
        ascending.add(EntryRef.of("early", Scope.PROJECT));
        ascending.addAll(tiesInOrder);
        ascending.add(EntryRef.of("late", Scope.PROJECT));
        assertThat(refs(provider.query(Query.builder().order(Order.UPDATED_ASC).build()))).containsExactlyElementsOf(ascending);
    }

    // ---------------------------------------------------------------- paging

    @Test
    void limit_returns_the_first_results_in_order() {
        for (String key : List.of("d", "b", "e", "a", "c")) {
            put(key, "v");
            clock.advance(Duration.ofSeconds(1));
        }
        assertThat(keys(provider.query(Query.builder().limit(2).build()))).containsExactly("a", "b");
        assertThat(keys(provider.query(Query.builder().order(Order.KEY_DESC).limit(2).build()))).containsExactly("e", "d");
        assertThat(keys(provider.query(Query.builder().order(Order.UPDATED_DESC).limit(1).build()))).containsExactly("c");
        assertThat(keys(provider.query(Query.builder().order(Order.UPDATED_ASC).limit(3).build()))).containsExactly("d", "b", "e");
        assertThat(keys(provider.query(Query.builder().limit(99).build()))).containsExactly("a", "b", "c", "d", "e");
    }

    @Test
    void pages_concatenate_to_the_full_result() {
        for (String key : List.of("k5", "k1", "k7", "k3", "k2", "k6", "k4")) {
            put(key, "v");
        }
        provider.set("k3", "v", Scope.SESSION);
        provider.set("k3", "v", Scope.GLOBAL);
        for (Order order : Order.values()) {
            List<MemoryEntry> full = provider.query(Query.builder().order(order).build());
            assertThat(full).hasSize(9);
            List<MemoryEntry> paged = new ArrayList<>();
            for (int offset = 0; offset < full.size(); offset += 2) {
                List<MemoryEntry> page = provider.query(Query.builder().order(order).offset(offset).limit(2).build());
                assertThat(page).as("page at offset %d in %s order", offset, order).hasSize(Math.min(2, full.size() - offset));
                paged.addAll(page);
            }
            assertThat(paged).as("pages in %s order", order).containsExactlyElementsOf(full);
            assertThat(provider.query(Query.builder().order(order).offset(full.size()).build())).isEmpty();
            assertThat(provider.query(Query.builder().order(order).offset(100).limit(5).build())).isEmpty();
        }
    }

    @Test
    void limit_and_offset_apply_after_filtering() {
        for (String key : List.of("a1", "a2", "a3", "a4", "a5", "b1")) {
            put(key, "v", key.equals("a4") || key.equals("a5") || key.equals("b1") ? List.of("x") : List.of(), Map.of());
        }
        assertThat(keys(provider.query(Query.builder().pattern("a*").tag("x").limit(1).build()))).containsExactly("a4");
        assertThat(keys(provider.query(Query.builder().pattern("a*").tag("x").offset(1).build()))).containsExactly("a5");
        assertThat(keys(provider.query(Query.builder().pattern("a*").tag("x").offset(2).build()))).isEmpty();
        assertThat(keys(provider.query(Query.builder().pattern("tag:x").offset(1).limit(1).build()))).containsExactly("a5");
    }

    // ---------------------------------------------------------------- results

    @Test
    void results_carry_the_full_entry_as_get_returns_it() {
        put("e1", "first", List.of("z", "a"), Map.of("n", 1));
        clock.advance(Duration.ofMinutes(3));
        put("e1", "# Title\n\nline two, with \"quotes\" and ünïcödé 😀\n", List.of("zeta", "alpha", "mid"),
                Map.of("count", 42, "ratio", 0.25, "ok", true, "nested", Map.of("list", List.of(1, "two", false))));
        provider.set("e2", "", Scope.GLOBAL, List.of("alpha"), Map.of());
        MemoryEntry e1 = provider.get("e1", Scope.PROJECT).orElseThrow();
        MemoryEntry e2 = provider.get("e2", Scope.GLOBAL).orElseThrow();
        assertThat(e1.version()).isEqualTo(2);
        assertThat(e1.createdAt()).isBefore(e1.updatedAt());

        assertThat(provider.query(Query.of("*"))).containsExactly(e1, e2);
        assertThat(provider.query(Query.of("e1"))).containsExactly(e1);
        assertThat(provider.query(Query.of("tag:alpha"))).containsExactly(e1, e2);
        assertThat(provider.query(Query.builder().metadata("count", 42).build())).containsExactly(e1);
        assertThat(provider.query(Query.builder().order(Order.UPDATED_DESC).build())).containsExactly(e2, e1);
    }

    // ---------------------------------------------------------------- helpers

    private void seed(String... keys) {
        for (String key : keys) {
            put(key, "value of " + key);
        }
    }

    private void seedAllScopes() {
        provider.set("k", "v", Scope.SESSION);
        put("k", "v");
        provider.set("k", "v", Scope.GLOBAL);
        provider.set("s-only", "v", Scope.SESSION);
        put("p-only", "v");
        provider.set("g-only", "v", Scope.GLOBAL);
    }

    /** The keys a pattern selects in every scope, in key order. */
    private List<String> matching(String pattern) {
        return keys(provider.query(Query.of(pattern)));
    }

    /** Writes a new key with the clock frozen at {@code instant}, however often the provider reads it. */
    private MemoryEntry writeAt(Instant instant, String key, Scope scope) {
        clock.freezeAt(instant);
        try {
            return provider.set(key, "v", scope);
        } finally {
            clock.resume();
        }
    }

    private static List<EntryRef> refs(List<MemoryEntry> entries) {
        return entries.stream().map(MemoryEntry::ref).toList();
    }

    private static <T> List<T> reversed(List<T> list) {
        List<T> copy = new ArrayList<>(list);
        Collections.reverse(copy);
        return copy;
    }
}
