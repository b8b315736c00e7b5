package dev.forge.memory.markdown.internal;

import static dev.forge.memory.markdown.internal.MemoryFileFixtures.CREATED;
import static dev.forge.memory.markdown.internal.MemoryFileFixtures.FALLBACK;
import static dev.forge.memory.markdown.internal.MemoryFileFixtures.ID;
import static dev.forge.memory.markdown.internal.MemoryFileFixtures.UPDATED;
import static dev.forge.memory.markdown.internal.MemoryFileFixtures.file;
import static dev.forge.memory.markdown.internal.MemoryFileFixtures.parse;
import static dev.forge.memory.markdown.internal.MemoryFileFixtures.roundTrip;
import static dev.forge.memory.markdown.internal.MemoryFileFixtures.text;
import static dev.forge.memory.markdown.internal.MemoryFileFixtures.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MemoryFileCodecTest {

    @Nested
    class Format {

        @Test
        void a_realistic_memory_is_written_in_the_documented_format() {
            Map<String, Object> metadata = new LinkedHashMap<>();
            metadata.put("source", "conversation");
            metadata.put("confidence", 0.9);
            metadata.put("reviewed", true);
            metadata.put("owners", List.of("alice", "bob"));
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("reviewed_by", "alice");
            MemoryFile memory = new MemoryFile(ID, "build-tool", CREATED, UPDATED, 2, Optional.of("project"),
                    Optional.of("tooling"), List.of("build", "maven"), metadata,
                    Optional.of("mem_5f0c2a8e-1b7d-4e3a-8c9f-0d1e2f3a4b5c"),
                    List.of(RelatedItem.toKey("java-version", "relates-to"),
                            new RelatedItem(Optional.of("mem_a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"), Optional.empty(),
                                    Optional.of("global"), "refines", Optional.of(UPDATED), Map.of())),
                    Optional.of("sess-42"), Optional.of("user said \"we use maven\""), false, List.of(),
                    Optional.empty(), extra,
                    "We use Maven 3.9 with the wrapper.\n\nRun `./mvnw verify` before pushing.");

            assertThat(text(MemoryFileCodec.serialize(memory))).isEqualTo("""
                    ---
                    id: mem_0b9d6c1e-3f4a-4c2b-9d1e-5a6b7c8d9e0f
                    key: build-tool
                    created_at: 2026-11-22T04:15:12.123Z
                    updated_at: 2026-11-23T09:30:00.000Z
                    version: 2
                    scope: project
                    category: tooling
                    tags:
                      - build
                      - maven
                    metadata:
                      source: conversation
                      confidence: 0.9
                      reviewed: true
                      owners:
                        - alice
                        - bob
                    supersedes: mem_5f0c2a8e-1b7d-4e3a-8c9f-0d1e2f3a4b5c
                    related:
                      - key: java-version
                        relationship: relates-to
                      - id: mem_a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d
                        scope: global
                        relationship: refines
                        created_at: 2026-11-23T09:30:00.000Z
                    session_id: sess-42
                    trigger: user said "we use maven"
                    reviewed_by: alice
                    ---
                    We use Maven 3.9 with the wrapper.

                    Run `./mvnw verify` before pushing.
                    """);
        }

        @Test
        void a_minimal_memory_leaves_out_absent_and_empty_fields() {
            assertThat(text(MemoryFileCodec.serialize(file().body("x").build()))).isEqualTo("""
                    ---
                    id: mem_0b9d6c1e-3f4a-4c2b-9d1e-5a6b7c8d9e0f
                    key: build-tool
                    created_at: 2026-11-22T04:15:12.123Z
                    updated_at: 2026-11-22T04:15:12.123Z
                    version: 1
                    ---
                    x
                    """);
        }

        @Test
        void a_tombstone_is_marked_and_has_an_empty_body() {
            MemoryFile tombstone = file().version(3).supersedes("mem_prev").tombstone().build();

            assertThat(text(MemoryFileCodec.serialize(tombstone)))
                    .endsWith("version: 3\nsupersedes: mem_prev\ntombstone: true\n---\n\n");
        }

        @Test
        void the_marks_of_a_restore_follow_supersedes_and_read_back() throws MemoryFileException {
            MemoryFile head = file().version(3).supersedes("mem_prev").replaces("mem_old1", "mem_old2").build();
            MemoryFile older = file().version(2).supersedes("mem_first").committedBy("mem_head").build();

            assertThat(text(MemoryFileCodec.serialize(head)))
                    .endsWith("version: 3\nsupersedes: mem_prev\nreplaces:\n  - mem_old1\n  - mem_old2\n---\n\n");
            assertThat(text(MemoryFileCodec.serialize(older)))
                    .endsWith("version: 2\nsupersedes: mem_first\ncommitted_by: mem_head\n---\n\n");
            assertThat(roundTrip(head)).isEqualTo(head);
            assertThat(roundTrip(older)).isEqualTo(older);
            assertThat(parse("---\nkey: k\nreplaces: mem_one\n---\n").replaces()).containsExactly("mem_one");
        }

        @Test
        void nested_values_are_written_in_block_style_with_compact_list_items() {
            Map<String, Object> inner = new LinkedHashMap<>();
            inner.put("a", 1);
            inner.put("b", List.of());
            inner.put("c", Map.of());
            inner.put("d", null);
            MemoryFile memory = file().metadata("list", List.of(inner, List.of("x", List.of("w")), "z"))
                    .metadata("text", "first line\nsecond line\n").build();

            assertThat(text(MemoryFileCodec.serialize(memory))).contains("""
                    metadata:
                      list:
                        - a: 1
                          b: []
                          c: {}
                          d: null
                        - - x
                          - - w
                        - z
                      text: |
                        first line
                        second line
                    ---
                    """);
        }

        @Test
        void strings_that_would_read_back_as_something_else_are_quoted() {
            MemoryFile memory = file().tags("true", "no", "123", "0x1F", "- x", "a: b", "it's", "tab\there", "")
                    .build();

            assertThat(text(MemoryFileCodec.serialize(memory))).contains("""
                    tags:
                      - 'true'
                      - 'no'
                      - '123'
                      - '0x1F'
                      - '- x'
                      - 'a: b'
                      - it's
                      - "tab\\there"
                      - ''
                    """);
        }

        @Test
        void numbers_are_written_as_numbers() {
            MemoryFile memory = file().metadata("int", 7).metadata("long", 1L << 40)
                    .metadata("big", new BigInteger("123456789012345678901234567890")).metadata("double", 1.0E10)
                    .metadata("decimal", new BigDecimal("3.14159265358979323846264338327950288")).build();

            assertThat(text(MemoryFileCodec.serialize(memory))).contains("""
                    metadata:
                      int: 7
                      long: 1099511627776
                      big: 123456789012345678901234567890
                      double: 1.0E10
                      decimal: 3.14159265358979323846264338327950288
                    """);
        }

        @Test
        void a_very_long_key_is_written_as_an_explicit_key() throws MemoryFileException {
            String longKey = "k".repeat(2000);
            MemoryFile memory = file().metadata(longKey, Map.of("a", 1)).extra(longKey, "v").build();

            assertThat(text(MemoryFileCodec.serialize(memory)))
                    .contains("\n  ? '" + longKey + "'\n  :\n    a: 1\n")
                    .contains("\n? '" + longKey + "'\n: v\n");
            assertThat(roundTrip(memory)).isEqualTo(memory);
        }

        @Test
        void the_front_matter_never_holds_a_delimiter_line() throws MemoryFileException {
            MemoryFile memory = file().key("---").tags("---", "...").metadata("---", "a\n---\nb").extra("---", "---")
                    .extra("--- x", List.of("---")).body("---").build();

            String written = text(MemoryFileCodec.serialize(memory));
            String frontMatter = written.substring(4, written.indexOf("\n---\n") + 1);

            assertThat(frontMatter.lines()).noneMatch(line -> line.matches("---[ \t]*\r?"));
            assertThat(roundTrip(memory)).isEqualTo(memory);
        }

        @Test
        void serialize_writes_utf8_with_lf_line_endings_only() {
            MemoryFile memory = file().key("ключ").tags("日本語", "😀").metadata("note", "a\r\nb").body("body")
                    .build();

            String written = text(MemoryFileCodec.serialize(memory));

            assertThat(written).doesNotContain("\r").contains("key: ключ").contains("  - 😀")
                    .contains("note: \"a\\r\\nb\"");
        }

        @Test
        void a_body_that_utf8_cannot_encode_is_rejected() {
            MemoryFile memory = file().body("half \uD800 pair").build();

            assertThatThrownBy(() -> MemoryFileCodec.serialize(memory)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unpaired surrogate");
        }
    }

    @Nested
    class Reading {

        @Test
        void every_field_is_read() throws MemoryFileException {
            MemoryFile read = parse("""
                    ---
                    id: mem_abc
                    key: build-tool
                    created_at: 2026-11-22T04:15:12.123Z
                    updated_at: 2026-11-23T09:30:00Z
                    version: 4
                    scope: session
                    category: tooling
                    tags: [build, maven]
                    metadata: {a: 1, b: [true, null, 2.5]}
                    supersedes: mem_prev
                    related:
                      - id: mem_other
                        relationship: contradicts
                        created_at: 2026-11-23T09:30:00.000Z
                      - key: java-version
                        scope: global
                        relationship: LINKS
                    session_id: s-1
                    trigger: asked
                    tombstone: false
                    ---
                    Body.
                    """);

            Map<String, Object> metadata = new LinkedHashMap<>();
            metadata.put("a", 1);
            metadata.put("b", java.util.Arrays.asList(true, null, 2.5));
            assertThat(read).isEqualTo(new MemoryFile("mem_abc", "build-tool", CREATED, UPDATED, 4,
                    Optional.of("session"), Optional.of("tooling"), List.of("build", "maven"), metadata,
                    Optional.of("mem_prev"),
                    List.of(new RelatedItem(Optional.of("mem_other"), Optional.empty(), Optional.empty(), "contradicts",
                                    Optional.of(UPDATED), Map.of()),
                            new RelatedItem(Optional.empty(), Optional.of("java-version"), Optional.of("global"), "LINKS",
                                    Optional.empty(), Map.of())),
                    Optional.of("s-1"), Optional.of("asked"), false, List.of(), Optional.empty(), Map.of(),
                    "Body."));
        }

        @Test
        void a_crlf_file_is_read_like_an_lf_file() throws MemoryFileException {
            MemoryFile read = parse("---\r\nkey: k\r\ntags:\r\n  - a\r\n---\r\nline one\r\nline two\r\n");

            assertThat(read.key()).isEqualTo("k");
            assertThat(read.tags()).containsExactly("a");
            assertThat(read.body()).isEqualTo("line one\r\nline two");
        }

        @Test
        void delimiter_lines_may_have_trailing_spaces_and_tabs() throws MemoryFileException {
            MemoryFile read = parse("--- \t\nkey: k\n---  \t\nbody\n");

            assertThat(read.key()).isEqualTo("k");
            assertThat(read.body()).isEqualTo("body");
        }

        @Test
        void a_leading_byte_order_mark_is_ignored() throws MemoryFileException {
            assertThat(parse("\uFEFF---\nkey: k\n---\nbody\n").key()).isEqualTo("k");
        }

        @Test
        void a_body_containing_a_delimiter_line_is_kept_whole() throws MemoryFileException {
            MemoryFile read = parse("---\nkey: k\n---\nintro\n---\nnot: front-matter\n---\n");

            assertThat(read.body()).isEqualTo("intro\n---\nnot: front-matter\n---");
        }

        @Test
        void only_one_final_line_break_is_removed_from_the_body() throws MemoryFileException {
            assertThat(parse("---\nkey: k\n---\nbody\n\n").body()).isEqualTo("body\n");
            assertThat(parse("---\nkey: k\n---\nbody").body()).isEqualTo("body");
            assertThat(parse("---\nkey: k\n---\n").body()).isEmpty();
            assertThat(parse("---\nkey: k\n---").body()).isEmpty();
            assertThat(parse("---\nkey: k\n---\n\n").body()).isEmpty();
            assertThat(parse("---\nkey: k\n---\nbody\r\n").body()).isEqualTo("body\r");
            assertThat(parse("---\nkey: k\n---\r\nbody\n").body()).isEqualTo("body");
        }

        @Test
        void timestamps_with_any_rfc3339_offset_are_read_as_utc_milliseconds() throws MemoryFileException {
            MemoryFile read = parse("""
                    ---
                    key: k
                    created_at: 2026-11-22T06:15:12.123999+02:00
                    updated_at: 2026-11-23 09:30:00z
                    ---
                    """);

            assertThat(read.createdAt()).isEqualTo(CREATED);
            assertThat(read.updatedAt()).isEqualTo(UPDATED);
        }

        @Test
        void unknown_fields_are_kept_in_order_after_the_known_ones() throws MemoryFileException {
            MemoryFile read = parse("""
                    ---
                    zeta: 1
                    key: k
                    alpha: [x, {w: z}]
                    id: mem_abc
                    middle: {a: b}
                    nothing:
                    ---
                    body
                    """);

            assertThat(read.extra()).containsExactly(Map.entry("zeta", 1), Map.entry("alpha", List.of("x", Map.of("w", "z"))),
                    Map.entry("middle", Map.of("a", "b")), new java.util.AbstractMap.SimpleEntry<>("nothing", null));
            String written = text(MemoryFileCodec.serialize(read));
            assertThat(written).contains("version: 1\nzeta: 1\nalpha:\n  - x\n  - w: z\nmiddle:\n  a: b\nnothing: null\n---\n");
            assertThat(MemoryFileCodec.parse(utf8(written), "mem_abc.md", FALLBACK)).isEqualTo(read);
        }

        @Test
        void unknown_keys_of_a_related_item_are_kept_in_order() throws MemoryFileException {
            MemoryFile read = parse("""
                    ---
                    key: k
                    related:
                      - weight: 3
                        key: other
                        note: {by: alice}
                        relationship: refines
                    ---
                    """);

            RelatedItem item = read.related().get(0);
            assertThat(item.extra()).containsExactly(Map.entry("weight", 3), Map.entry("note", Map.of("by", "alice")));
            String written = text(MemoryFileCodec.serialize(read));
            assertThat(written).contains("related:\n  - key: other\n    relationship: refines\n    weight: 3\n    note:\n      by: alice\n");
            assertThat(parse(written)).isEqualTo(read);
        }

        @Test
        void words_yaml_1_1_takes_as_booleans_are_read_as_strings() throws MemoryFileException {
            MemoryFile read = parse("---\nkey: k\ntags: [yes, no, on, off, y, n]\nmetadata: {flag: true}\n---\n");

            assertThat(read.tags()).containsExactly("yes", "no", "on", "off", "y", "n");
            assertThat(read.metadata()).containsEntry("flag", true);
        }

        @Test
        void numbers_keep_their_value_and_kind() throws MemoryFileException {
            MemoryFile read = parse("""
                    ---
                    key: k
                    metadata:
                      small: 5
                      long: 1099511627776
                      big: 123456789012345678901234567890
                      double: 2.5
                      exponent: 1e3
                      precise: 3.14159265358979323846264338327950288
                      huge: 1.0e+400
                      hex: 0x1F
                      negative_zero: -0.0
                    ---
                    """);

            assertThat(read.metadata()).containsExactly(Map.entry("small", 5), Map.entry("long", 1099511627776L),
                    Map.entry("big", new BigInteger("123456789012345678901234567890")), Map.entry("double", 2.5),
                    Map.entry("exponent", 1000.0),
                    Map.entry("precise", new BigDecimal("3.14159265358979323846264338327950288")),
                    Map.entry("huge", new BigDecimal("1.0E+400")), Map.entry("hex", 31), Map.entry("negative_zero", -0.0));
            assertThat(roundTrip(read)).isEqualTo(read);
        }
    }

    @Nested
    class Leniency {

        @Test
        void a_file_with_only_a_key_gets_defaults_for_everything_else() throws MemoryFileException {
            MemoryFile read = parse("---\nkey: k\n---\nbody\n");

            assertThat(read).isEqualTo(new MemoryFile(ID, "k", FALLBACK, FALLBACK, 1, Optional.empty(), Optional.empty(),
                    List.of(), Map.of(), Optional.empty(), List.of(), Optional.empty(), Optional.empty(), false,
                    List.of(), Optional.empty(), Map.of(), "body"));
        }

        @Test
        void a_missing_id_is_derived_from_the_file_name() throws MemoryFileException {
            MemoryFile read = MemoryFileCodec.parse(utf8("---\nkey: k\n---\n"), "mem_hand-written.md", FALLBACK);

            assertThat(read.id()).isEqualTo("mem_hand-written");
        }

        @Test
        void a_missing_created_at_is_taken_from_updated_at_and_the_other_way_round() throws MemoryFileException {
            MemoryFile onlyUpdated = parse("---\nkey: k\nupdated_at: 2026-11-23T09:30:00Z\n---\n");
            MemoryFile onlyCreated = parse("---\nkey: k\ncreated_at: 2026-11-22T04:15:12.123Z\n---\n");

            assertThat(onlyUpdated.createdAt()).isEqualTo(UPDATED);
            assertThat(onlyUpdated.updatedAt()).isEqualTo(UPDATED);
            assertThat(onlyCreated.createdAt()).isEqualTo(CREATED);
            assertThat(onlyCreated.updatedAt()).isEqualTo(CREATED);
        }

        @Test
        void the_fallback_time_is_truncated_to_milliseconds() throws MemoryFileException {
            MemoryFile read = MemoryFileCodec.parse(utf8("---\nkey: k\n---\n"), ID + ".md",
                    Instant.parse("2026-01-01T00:00:00.123456789Z"));

            assertThat(read.createdAt()).isEqualTo(Instant.parse("2026-01-01T00:00:00.123Z"));
        }

        @Test
        void empty_optional_fields_count_as_absent() throws MemoryFileException {
            MemoryFile read = parse("---\nid:\nkey: k\nversion:\nscope:\ncategory:\ntags:\nmetadata:\nsupersedes:\n"
                    + "related:\nsession_id:\ntrigger:\ntombstone:\ncreated_at:\nupdated_at:\n---\n");

            assertThat(read).isEqualTo(parse("---\nkey: k\n---\n"));
        }

        @Test
        void a_single_tag_may_be_written_without_a_list() throws MemoryFileException {
            assertThat(parse("---\nkey: k\ntags: maven\n---\n").tags()).containsExactly("maven");
        }

        @Test
        void a_related_item_written_as_a_string_is_a_key_that_relates_to() throws MemoryFileException {
            MemoryFile read = parse("---\nkey: k\nrelated:\n  - other-key\n  - key: third\n---\n");

            assertThat(read.related()).containsExactly(RelatedItem.toKey("other-key", "relates-to"),
                    RelatedItem.toKey("third", "relates-to"));
            assertThat(parse("---\nkey: k\nrelated: other-key\n---\n").related())
                    .containsExactly(RelatedItem.toKey("other-key", "relates-to"));
        }
    }

    @Nested
    class Errors {

        @ParameterizedTest
        @ValueSource(strings = {"", "key: k\n", "--- x\nkey: k\n---\n", "\n---\nkey: k\n---\n", "----\nkey: k\n---\n",
                " ---\nkey: k\n---\n"})
        void a_file_not_starting_with_a_delimiter_line_has_no_front_matter(String content) {
            assertThatThrownBy(() -> parse(content)).isInstanceOf(MemoryFileException.class)
                    .hasMessage("line 1: missing front-matter: the file must start with a line '---'");
        }

        @ParameterizedTest
        @ValueSource(strings = {"---", "---\n", "---\nkey: k\n", "---\nkey: k\n--- x\nbody\n", "---\nkey: k\n ---\n"})
        void front_matter_without_a_closing_delimiter_line_is_unclosed(String content) {
            assertThatThrownBy(() -> parse(content)).isInstanceOf(MemoryFileException.class)
                    .hasMessage("unclosed front-matter: no closing '---' line");
        }

        @ParameterizedTest
        @ValueSource(strings = {"replaces: 3\n", "replaces:\n  - ../mem_x\n", "replaces:\n  - {a: 1}\n",
                "committed_by: ../mem_x\n", "committed_by: [mem_x]\n"})
        void restore_marks_that_are_not_safe_ids_are_refused(String field) {
            assertThatThrownBy(() -> parse("---\nkey: k\n" + field + "---\n")).isInstanceOf(MemoryFileException.class)
                    .hasMessageContaining(field.startsWith("replaces") ? "'replaces'" : "'committed_by'");
        }

        @Test
        void invalid_yaml_is_reported_with_its_file_line() {
            assertThatThrownBy(() -> parse("---\nkey: k\ntags:\n  - a\n b: c\n---\n"))
                    .isInstanceOf(MemoryFileException.class)
                    .hasMessageStartingWith("line 5: front-matter is not valid YAML: ")
                    .satisfies(e -> assertThat(((MemoryFileException) e).line()).hasValue(5));
        }

        @Test
        void an_unclosed_quote_points_at_where_it_started() {
            assertThatThrownBy(() -> parse("---\nkey: k\ncategory: \"open\nx: 1\n---\n"))
                    .hasMessageContaining("front-matter is not valid YAML")
                    .hasMessageContaining("started on line 3");
        }

        @Test
        void a_tab_used_for_indentation_is_reported() {
            assertThatThrownBy(() -> parse("---\nkey: k\nmetadata:\n\ta: 1\n---\n"))
                    .hasMessageStartingWith("line 4: front-matter is not valid YAML");
        }

        @Test
        void empty_front_matter_is_missing_the_key() {
            assertThatThrownBy(() -> parse("---\n---\nbody\n")).hasMessageContaining("empty front-matter")
                    .hasMessageContaining("'key'");
            assertThatThrownBy(() -> parse("---\n# just a comment\n---\nbody\n")).hasMessageContaining("empty front-matter");
        }

        @Test
        void front_matter_that_is_a_list_or_a_single_value_is_rejected() {
            assertThatThrownBy(() -> parse("---\n- key: k\n---\n"))
                    .hasMessage("line 2: the front-matter must be a YAML mapping of fields such as 'key: ...', not a list");
            assertThatThrownBy(() -> parse("---\njust some text\n---\n"))
                    .hasMessage("line 2: the front-matter must be a YAML mapping of fields such as 'key: ...', not a single value");
        }

        @Test
        void a_duplicate_field_is_rejected_at_its_second_line() {
            assertThatThrownBy(() -> parse("---\nkey: k\ntags: [a]\nkey: other\n---\n"))
                    .hasMessage("line 4: duplicate field 'key' in the front-matter");
        }

        @Test
        void a_duplicate_key_inside_metadata_is_rejected() {
            assertThatThrownBy(() -> parse("---\nkey: k\nmetadata:\n  a: 1\n  b: 2\n  a: 3\n---\n"))
                    .hasMessage("line 6: duplicate key 'a' in 'metadata'");
        }

        @Test
        void a_missing_key_is_left_for_the_chain_to_give_and_an_empty_one_is_rejected() throws MemoryFileException {
            // Seed 000 files name no key: the store derives it from the version chain.
            assertThat(parse("---\nid: mem_x\n---\n").key()).isEmpty();
            assertThatThrownBy(() -> parse("---\nkey:\n---\n")).hasMessage("line 2: 'key' is empty; give the memory a"
                    + " key, or leave the field out for the key of its version chain");
        }

        @ParameterizedTest
        @ValueSource(strings = {
                "version: abc|line 3: 'version' must be a whole number of 1 or more",
                "version: 0|line 3: 'version' must be a whole number of 1 or more",
                "version: 1.5|line 3: 'version' must be a whole number of 1 or more",
                "version: 99999999999999999999999|line 3: 'version' must be a whole number of 1 or more",
                "tags: 5|line 3: 'tags' must be a list of strings, not a number",
                "tags: [a, 1]|line 3: 'tags' must be a list of strings, but tag 2 is a number; put the value in quotes",
                "tags: [{a: b}]|line 3: 'tags' must be a list of strings, but tag 1 is a map",
                "tags: [a, null]|line 3: 'tags' must be a list of strings, but tag 2 is null",
                "metadata: [1]|line 3: 'metadata' must be a map of names to values, not a list",
                "metadata: text|line 3: 'metadata' must be a map of names to values, not a string",
                "category: 12|line 3: 'category' must be a string, not a number; put the value in quotes",
                "scope: [project]|line 3: 'scope' must be a string, not a list",
                "trigger: true|line 3: 'trigger' must be a string, not a boolean; put the value in quotes",
                "session_id: {a: b}|line 3: 'session_id' must be a string, not a map",
                "tombstone: yes|line 3: 'tombstone' must be true or false",
                "created_at: 5|line 3: 'created_at' must be an RFC 3339 timestamp such as 2026-11-22T04:15:12.123Z, not a number",
                "updated_at: yesterday|line 3: 'updated_at' is not an RFC 3339 timestamp in the years 0000 to 9999, such as 2026-11-22T04:15:12.123Z",
                "created_at: 2026-11-22|line 3: 'created_at' is not an RFC 3339 timestamp in the years 0000 to 9999, such as 2026-11-22T04:15:12.123Z",
                "related: 5|line 3: 'related' must be a list of links, not a number",
                "related: [5]|line 3: 'related' item 1 must be a map with an 'id' or a 'key', or a key, not a number",
                "related: [{relationship: refines}]|line 3: 'related' item 1 needs an 'id' or a 'key'",
                "related: [{key: a, relationship: ''}]|line 3: 'related' item 1: 'relationship' must not be empty",
                "related: [{key: a, relationship: 5}]|line 3: 'related' item 1: 'relationship' must be a string, not a number; put the value in quotes",
                "related: [{key: a, created_at: soon}]|line 3: 'related' item 1: 'created_at' is not an RFC 3339 timestamp in the years 0000 to 9999, such as 2026-11-22T04:15:12.123Z",
        })
        void a_field_of_the_wrong_type_is_named_in_the_message(String caseText) {
            String[] parts = caseText.split("\\|");
            assertThatThrownBy(() -> parse("---\nkey: k\n" + parts[0] + "\n---\n"))
                    .isInstanceOf(MemoryFileException.class).hasMessage(parts[1]);
        }

        @Test
        void a_key_that_is_not_a_string_must_be_quoted() {
            assertThatThrownBy(() -> parse("---\nkey: 2024\n---\n"))
                    .hasMessage("line 2: 'key' must be a string, not a number; put the value in quotes");
        }

        @ParameterizedTest
        @ValueSource(strings = {"'../etc/passwd'", "'mem_a/b'", "'mem_a\\b'", "'..'", "\"mem_\\0x\"", "\"mem_\\tx\"", "''"})
        void an_unsafe_id_is_rejected_wherever_it_appears(String id) {
            assertThatThrownBy(() -> parse("---\nid: " + id + "\nkey: k\n---\n"))
                    .hasMessageStartingWith("line 2: 'id' is not a safe id: an id must ");
            assertThatThrownBy(() -> parse("---\nkey: k\nsupersedes: " + id + "\n---\n"))
                    .hasMessageStartingWith("line 3: 'supersedes' is not a safe id: an id must ");
            assertThatThrownBy(() -> parse("---\nkey: k\nrelated:\n  - id: " + id + "\n---\n"))
                    .hasMessageStartingWith("line 3: 'related' item 1: 'id' is not a safe id: an id must ");
        }

        @Test
        void a_missing_id_with_a_file_name_it_cannot_come_from_is_rejected() {
            assertThatThrownBy(() -> MemoryFileCodec.parse(utf8("---\nkey: k\n---\n"), "notes.md", FALLBACK))
                    .hasMessage("the field 'id' is missing and the file name is not mem_<id>.md, so no id can be derived");
        }

        @Test
        void invalid_utf8_is_rejected_with_its_line() {
            String content = "---\nkey: k\ncategory: caf?\n---\n";
            byte[] bytes = utf8(content);
            bytes[content.indexOf('?')] = (byte) 0xE9; // Latin-1 'é'

            assertThatThrownBy(() -> MemoryFileCodec.parse(bytes, ID + ".md", FALLBACK))
                    .hasMessage("line 3: not valid UTF-8 text (at byte 24); save the file as UTF-8");
        }

        @Test
        void overlong_and_surrogate_utf8_encodings_are_rejected() {
            byte[] overlong = {'-', '-', '-', '\n', 'k', 'e', 'y', ':', ' ', (byte) 0xC0, (byte) 0xAF, '\n', '-', '-', '-', '\n'};
            byte[] surrogate = {'-', '-', '-', '\n', '-', '-', '-', '\n', (byte) 0xED, (byte) 0xA0, (byte) 0x80};

            assertThatThrownBy(() -> MemoryFileCodec.parse(overlong, ID + ".md", FALLBACK))
                    .hasMessageContaining("line 2: not valid UTF-8");
            assertThatThrownBy(() -> MemoryFileCodec.parse(surrogate, ID + ".md", FALLBACK))
                    .hasMessageContaining("line 3: not valid UTF-8");
        }

        @Test
        void a_yaml_alias_is_rejected_rather_than_read_as_its_name() {
            assertThatThrownBy(() -> parse("---\nkey: &name k\ncategory: *name\n---\n"))
                    .hasMessage("line 3: 'category' uses a YAML alias (*name), which is not supported: write the value out");
        }

        @Test
        void binary_and_non_finite_values_are_rejected() {
            assertThatThrownBy(() -> parse("---\nkey: k\nmetadata:\n  blob: !!binary aGVsbG8=\n---\n"))
                    .hasMessage("line 4: 'metadata' holds a binary value (!!binary), which is not supported");
            assertThatThrownBy(() -> parse("---\nkey: k\nmetadata:\n  x: .inf\n---\n"))
                    .hasMessage("line 4: 'metadata' holds a number that is not a finite decimal (such as .inf, .nan or a value"
                            + " tagged !!float), which JSON cannot hold");
            assertThatThrownBy(() -> parse("---\nkey: k\nmetadata:\n  x: !!float abc\n---\n"))
                    .hasMessageStartingWith("line 4: 'metadata' holds a number that is not a finite decimal");
            assertThatThrownBy(() -> parse("---\nkey: k\nmetadata:\n  x: " + "9".repeat(1001) + "\n---\n"))
                    .hasMessageStartingWith("line 4: 'metadata' holds a whole number that cannot be read");
        }

        @Test
        void a_key_that_is_a_list_is_rejected() {
            assertThatThrownBy(() -> parse("---\nkey: k\n? [a, b]\n: c\n---\n"))
                    .hasMessageStartingWith("line 3: front-matter cannot be read as fields and values")
                    .hasMessageContaining("every key must be a single value");
        }

        @Test
        void a_second_yaml_document_is_rejected() {
            assertThatThrownBy(() -> parse("---\nkey: k\n--- other\n---\n"))
                    .hasMessage("line 3: the front-matter holds more than one YAML document");
            assertThatThrownBy(() -> parse("---\nkey: k\n...\nother: 1\n---\n"))
                    .hasMessageStartingWith("line 4: front-matter is not valid YAML");
        }

        @Test
        void values_nested_too_deep_are_rejected() {
            String deep = "[".repeat(MemoryFile.MAX_DEPTH + 1) + "]".repeat(MemoryFile.MAX_DEPTH + 1);

            assertThatThrownBy(() -> parse("---\nkey: k\nmetadata: {a: " + deep + "}\n---\n"))
                    .hasMessageContaining("'metadata' nests lists and maps more than 64 deep");
        }

        @Test
        void a_control_character_yaml_does_not_allow_is_reported_with_its_line() {
            assertThatThrownBy(() -> parse("---\nkey: k\ncategory: a\u0001b\n---\n"))
                    .hasMessage("line 3: the front-matter holds a character YAML does not allow (U+0001);"
                            + " write it as an escape inside double quotes");
        }

        @Test
        void messages_never_quote_the_body_or_metadata_values() {
            String secret = "sk-live-SECRET-4f9a";
            List<String> broken = List.of(
                    "---\nkey: k\nmetadata:\n  token: " + secret + "\n   bad: indent\n---\n" + secret + "\n",
                    "---\nkey: k\nmetadata:\n  token: \"" + secret + "\\q\"\n---\n" + secret + "\n",
                    "---\nkey: k\nmetadata: {token: " + secret + "\n---\n" + secret + "\n",
                    "---\nkey: k\nmetadata:\n  token: '" + secret + "\n---\n" + secret + "\n",
                    "---\nkey: k\nmetadata:\n  token: " + secret + "\n  token: " + secret + "\n---\n" + secret + "\n",
                    "---\nkey: k\nmetadata:\n  token: *" + secret + "\n---\n" + secret + "\n",
                    "---\nkey: k\nmetadata:\n  token: !!binary " + secret + "\n---\n" + secret + "\n",
                    "---\nkey: k\nmetadata: " + secret + "\n---\n" + secret + "\n",
                    "---\nkey: k\nversion: " + secret + "\n---\n" + secret + "\n",
                    "---\nkey: k\ntags: [" + secret + ", 1]\n---\n" + secret + "\n",
                    "---\nkey: k\ncreated_at: " + secret + "\n---\n" + secret + "\n",
                    "---\nkey: k\nmetadata:\n  token: " + secret + "\u0007\n---\n" + secret + "\n",
                    "---\nkey: k\nmetadata:\n  token: " + secret + "\n" + secret + "\n",
                    "---\nkey: \"\"\nmetadata:\n  token: " + secret + "\n---\n" + secret + "\n",
                    secret + "\n---\nkey: k\n---\n");
            for (String content : broken) {
                assertThatThrownBy(() -> parse(content)).isInstanceOf(MemoryFileException.class)
                        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("SECRET").doesNotContain("\n"));
            }
        }
    }

    @Nested
    class Ids {

        @Test
        void check_id_accepts_safe_ids_and_says_what_is_wrong_with_others() {
            assertThat(MemoryFileCodec.checkId("mem_0b9d6c1e-3f4a")).isEqualTo("mem_0b9d6c1e-3f4a");
            assertThat(MemoryFileCodec.checkId("mem_a.b")).isEqualTo("mem_a.b");
            assertThatThrownBy(() -> MemoryFileCodec.checkId("")).hasMessage("an id must not be empty");
            assertThatThrownBy(() -> MemoryFileCodec.checkId("a/b")).hasMessage("an id must not contain '/'");
            assertThatThrownBy(() -> MemoryFileCodec.checkId("a\\b")).hasMessage("an id must not contain '\\'");
            assertThatThrownBy(() -> MemoryFileCodec.checkId("..")).hasMessage("an id must not be '.' or '..'");
            assertThatThrownBy(() -> MemoryFileCodec.checkId("a\u0000b"))
                    .hasMessage("an id must not contain a control character (U+0000)");
            assertThatThrownBy(() -> MemoryFileCodec.checkId("a\u009Fb"))
                    .hasMessage("an id must not contain a control character (U+009F)");
            assertThatThrownBy(() -> MemoryFileCodec.checkId(null)).isInstanceOf(NullPointerException.class);
        }

        @Test
        void memory_file_names_are_mem_something_dot_md() {
            assertThat(MemoryFileCodec.isMemoryFileName("mem_0b9d6c1e-3f4a-4c2b-9d1e-5a6b7c8d9e0f.md")).isTrue();
            assertThat(MemoryFileCodec.isMemoryFileName("mem_x.md")).isTrue();
            // Seed 003 elides its ids with "...": harmless in one file name.
            assertThat(MemoryFileCodec.isMemoryFileName("mem_1H8Z7j3fR9x....md")).isTrue();
            List<String> others = new ArrayList<>(List.of("mem_.md", "mem.md", "mem_x.md.tmp", "mem_x.MD", "x_mem_y.md",
                    "mem_a/b.md", "mem_a\\b.md", "mem_a\u0000.md", ".mem_x.md", ""));
            others.add(null);
            for (String name : others) {
                assertThat(MemoryFileCodec.isMemoryFileName(name)).as(String.valueOf(name)).isFalse();
            }
        }

        @Test
        void the_file_name_of_an_id_is_the_id_and_md() {
            assertThat(MemoryFileCodec.fileName("mem_x")).isEqualTo("mem_x.md");
            assertThatThrownBy(() -> MemoryFileCodec.fileName("../x")).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void a_memory_with_every_field_set_round_trips() throws MemoryFileException {
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("null", null);
        nested.put("list", java.util.Arrays.asList(1, null, "two", List.of(), Map.of()));
        Map<String, Object> itemExtra = new LinkedHashMap<>();
        itemExtra.put("weight", 0.5);
        itemExtra.put("tags", List.of("x"));
        MemoryFile memory = file().version(7).times(CREATED, UPDATED).scope("global").category("notes")
                .tags("a", "b").metadata("nested", nested).metadata("flag", false)
                .supersedes("mem_prev").related(new RelatedItem(Optional.of("mem_r"), Optional.of("rk"),
                        Optional.of("project"), "refines", Optional.of(CREATED), itemExtra))
                .sessionId("s").trigger("t").extra("x_custom", Map.of("k", List.of(1, 2))).body("# Title\n\ntext\n")
                .build();

        assertThat(roundTrip(memory)).isEqualTo(memory);
    }

    @Test
    void a_minimal_memory_and_a_tombstone_round_trip() throws MemoryFileException {
        MemoryFile minimal = file().build();
        MemoryFile tombstone = file().version(2).supersedes("mem_prev").tombstone().build();

        assertThat(roundTrip(minimal)).isEqualTo(minimal);
        assertThat(roundTrip(tombstone)).isEqualTo(tombstone);
    }
}
