package dev.forge.memory.markdown.internal;

import static dev.forge.memory.markdown.internal.MemoryFileFixtures.FALLBACK;
import static dev.forge.memory.markdown.internal.MemoryFileFixtures.file;
import static dev.forge.memory.markdown.internal.MemoryFileFixtures.roundTrip;
import static dev.forge.memory.markdown.internal.MemoryFileFixtures.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Lossless writing: {@code parse(serialize(m))} equals {@code m}, whatever the strings, numbers and nesting. */
class MemoryFileRoundTripTest {

    /** Strings a naive YAML writer gets wrong: they read back as other types, other strings, or break the file. */
    static final List<String> TRICKY = List.of(
            "true", "false", "True", "FALSE", "yes", "no", "Yes", "OFF", "on", "off", "y", "n", "Y", "N",
            "null", "Null", "NULL", "~", "",
            "123", "-1", "+1", "1.5", ".5", "1.", "1e3", "1E3", "12e+3", "0x1F", "0o17", "017", "0b101", "1_000",
            ".inf", "-.inf", ".nan", "NaN", "Infinity", "-Infinity", "2026-11-22", "2026-11-22T04:15:12.123Z",
            "12:30", "1:30:00", "-", "- x", "-x", "--", "---", "--- x", "...", "?", "? x", ":", "a:", "a: b", "a:b",
            "#", "# c", "a #b", "a#b", "&a", "*a", "!t", "!!str", "%x", "@x", "`x", "|", "|-", ">", ">x",
            "{a}", "[a]", "a,b", "{", "]", "<<", "=", "'q", "\"q", "'", "''", "\"", "it's", "say \"hi\"",
            " lead", "trail ", " ", "  ", "\t", "\tlead", "tab\there", "\\", "\\n", "C:\\dir\\file",
            "multi\nline", "multi\nline\n", "\n", "\n\n", "\nlead", "trail\n\n", "  indented\nline",
            "line\n  indented", "a  \nb", "a\n\nb", "cr\r", "\r", "\r\n", "a\r\nb", "x\u0085y", "\u0085",
            "\u2028", "a\u2028b", "\u2029", "x\u0085\ny", "\uFEFF", "\uFEFFx", "\u00A0", "nbsp\u00A0", "\u00A0nbsp",
            "a\u3000", "\u0000", "x\u0000y", "\u0007\u0008\u000B\u000C\u001B\u007F\u0080\u009F", "\uFFFE\uFFFF",
            "\uD800", "\uDC00x", "é", "日本語", "ключ", "😀", "a😀b", "😀 emoji", "key: value # comment",
            "x".repeat(300), "word ".repeat(60), "y".repeat(1500));

    static Stream<String> tricky() {
        return TRICKY.stream();
    }

    @ParameterizedTest
    @MethodSource("tricky")
    void a_tricky_string_round_trips_in_every_string_field(String s) throws MemoryFileException {
        Map<String, Object> itemExtra = new LinkedHashMap<>();
        itemExtra.put("note", s);
        MemoryFileFixtures.Builder builder = file().key(s).tags("plain", s).category(s).scope(s).sessionId(s)
                .trigger(s).metadata("v", s).metadata(s, List.of(s, Map.of(s, s)))
                .related(new RelatedItem(Optional.empty(), Optional.of(s), Optional.of(s), s.isEmpty() ? "x" : s,
                        Optional.empty(), itemExtra));
        if (!MemoryFile.FIELD_NAMES.contains(s)) {
            builder.extra(s, s);
        }
        if (s.chars().noneMatch(c -> Character.isSurrogate((char) c))) {
            builder.body(s);
        }
        MemoryFile memory = builder.build();

        assertThat(roundTrip(memory)).isEqualTo(memory);
    }

    @ParameterizedTest
    @MethodSource("tricky")
    void a_yaml_1_1_reader_sees_the_same_string(String s) throws Exception {
        String written = text(MemoryFileCodec.serialize(file().metadata("v", s).metadata(s, "k").build()));
        String frontMatter = written.substring(4, written.indexOf("\n---\n") + 1);

        JsonNode metadata = new YAMLMapper().readTree(frontMatter).get("metadata");

        assertThat(metadata.get("v").isTextual()).as(frontMatter).isTrue();
        assertThat(metadata.get("v").textValue()).isEqualTo(s);
        assertThat(metadata.get(s)).isNotNull();
    }

    @ParameterizedTest
    @MethodSource("bodies")
    void every_body_round_trips_byte_for_byte(String body) throws MemoryFileException {
        MemoryFile memory = file().body(body).build();

        assertThat(roundTrip(memory).body()).isEqualTo(body);
    }

    static Stream<String> bodies() {
        return Stream.of("", "\n", "\n\n", "\r", "\r\n", "a\n", "a\r", "a\r\n", "---", "---\n", "\n---\n---\n",
                "--- \n...\n", "\uFEFF", "\uFEFFtext", "trailing   ", "   ", "\t", "x\u0000y", "# Title\n\n- item\n",
                "line\r\nline\r\n", "z".repeat(1 << 20));
    }

    @Test
    void an_emoji_at_any_offset_of_the_yaml_parsers_buffer_is_read() throws MemoryFileException {
        // SnakeYAML 2.3 reads 1024 characters at a time and fails when a surrogate pair straddles the edge.
        for (int padding = 0; padding < 1100; padding++) {
            MemoryFile memory = file().metadata("note", "x".repeat(padding) + "😀😀").tags("😀").build();

            assertThat(roundTrip(memory)).isEqualTo(memory);
        }
    }

    @Test
    void doubles_keep_their_exact_value_and_stay_doubles() throws MemoryFileException {
        List<Double> values = List.of(0.0, -0.0, 1.0, -1.5, 0.1, 1.0 / 3, Math.PI, 1e-5, 1e21, 1e22, 123456789.123,
                Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_NORMAL, 4.35e-310, 1e-300, 2.5e300);
        MemoryFile memory = file().metadata("values", values).build();

        MemoryFile read = roundTrip(memory);

        assertThat(read).isEqualTo(memory);
        assertThat((List<?>) read.metadata().get("values")).allMatch(v -> v instanceof Double);
    }

    @Test
    void big_numbers_keep_their_value() throws MemoryFileException {
        List<Object> values = List.of(new BigInteger("123456789012345678901234567890"),
                new BigInteger("-99999999999999999999999999999999999999"), Long.MAX_VALUE, Long.MIN_VALUE,
                Integer.MIN_VALUE, new BigDecimal("0.10000000000000000000000000001"), new BigDecimal("1E+400"),
                new BigDecimal("-1.23E-400"), new BigDecimal("12345678901234567890.5"),
                new BigDecimal("123456789012345678901234567890"), new BigDecimal("2.000000000000000000000000000000001000"));
        MemoryFile memory = file().metadata("values", values).build();

        assertThat(roundTrip(memory)).isEqualTo(memory);
    }

    @Test
    void timestamps_at_both_ends_of_the_range_round_trip() throws MemoryFileException {
        MemoryFile memory = file().times(Instant.parse("0000-01-01T00:00:00Z"), Instant.parse("9999-12-31T23:59:59.999Z"))
                .related(new RelatedItem(Optional.of("mem_x"), Optional.empty(), Optional.empty(), "refines",
                        Optional.of(Instant.parse("1970-01-01T00:00:00Z")), Map.of()))
                .build();

        assertThat(roundTrip(memory)).isEqualTo(memory);
    }

    @Test
    void values_nested_as_deep_as_allowed_round_trip() throws MemoryFileException {
        MemoryFile memory = file().metadata("deep", nested(MemoryFile.MAX_DEPTH - 1))
                .extra("deep", nested(MemoryFile.MAX_DEPTH))
                .related(new RelatedItem(Optional.empty(), Optional.of("k"), Optional.empty(), "refines",
                        Optional.empty(), Map.of("deep", nested(MemoryFile.MAX_DEPTH - RelatedItem.EXTRA_DEPTH + 1))))
                .build();

        assertThat(roundTrip(memory)).isEqualTo(memory);
    }

    /** {@code levels} lists, one inside the other, around a string. */
    private static Object nested(int levels) {
        Object value = "core";
        for (int i = 0; i < levels; i++) {
            value = i % 2 == 0 ? List.of(value) : Map.of("m", value);
        }
        return value;
    }

    @Test
    void random_memories_round_trip_and_rewrite_identically() throws MemoryFileException {
        for (long seed = 0; seed < 400; seed++) {
            Random random = new Random(seed);
            MemoryFile memory = randomFile(random);
            byte[] written = MemoryFileCodec.serialize(memory);

            MemoryFile read = MemoryFileCodec.parse(written, memory.id() + ".md", FALLBACK);

            assertThat(read).as("seed %d:\n%s", seed, text(written)).isEqualTo(memory);
            assertThat(MemoryFileCodec.serialize(read)).as("seed %d", seed).isEqualTo(written);
        }
    }

    private static final String YAML_SYNTAX = "-:#'\"[]{}&*!|>%@\n\t ";

    @Test
    void damaged_files_fail_only_with_a_memory_file_exception() {
        for (long seed = 0; seed < 2000; seed++) {
            Random random = new Random(seed);
            byte[] bytes = MemoryFileCodec.serialize(randomFile(random));
            for (int damage = 1 + random.nextInt(3); damage > 0 && bytes.length > 0; damage--) {
                int at = random.nextInt(bytes.length);
                switch (random.nextInt(3)) {
                    case 0 -> bytes[at] = (byte) random.nextInt(256);
                    case 1 -> bytes[at] = (byte) YAML_SYNTAX.charAt(random.nextInt(YAML_SYNTAX.length()));
                    default -> bytes = java.util.Arrays.copyOf(bytes, at);
                }
            }
            try {
                MemoryFileCodec.parse(bytes, "mem_damaged.md", FALLBACK);
            } catch (MemoryFileException expected) {
                assertThat(expected.getMessage()).as("seed %d", seed).doesNotContain("\n").isNotBlank();
            }
        }
    }

    private static final List<String> FRAGMENTS = List.of("a", "key", " ", ":", ": ", "#", " #", "-", "- ", "?",
            "'", "\"", "\\", "\n", "\r", "\t", "0", "1.5", "e3", "true", "null", "~", "[", "]", "{", "}", ",", "&",
            "*", "!", "|", ">", "%", "@", "`", "---", "...", "\u0085", "\u2028", "\uFEFF", "\u0000", "\u00A0", "é",
            "😀", "\uD800", "日本");

    private static String randomString(Random random) {
        StringBuilder text = new StringBuilder();
        int parts = random.nextInt(5);
        for (int i = 0; i < parts; i++) {
            text.append(random.nextInt(4) == 0 ? TRICKY.get(random.nextInt(TRICKY.size()))
                    : FRAGMENTS.get(random.nextInt(FRAGMENTS.size())));
        }
        return text.toString();
    }

    private static Object randomScalar(Random random) {
        return switch (random.nextInt(9)) {
            case 0 -> null;
            case 1 -> random.nextBoolean();
            case 2 -> random.nextInt();
            case 3 -> random.nextLong();
            case 4 -> new BigInteger(100, random).negate();
            case 5 -> {
                double value = Double.longBitsToDouble(random.nextLong());
                yield Double.isFinite(value) ? value : random.nextGaussian();
            }
            case 6 -> new BigDecimal(new BigInteger(90, random), random.nextInt(800) - 400);
            case 7 -> random.nextDouble() * 1000;
            default -> randomString(random);
        };
    }

    private static Object randomValue(Random random, int depth) {
        int kind = depth > 4 ? 0 : random.nextInt(4);
        if (kind == 1) {
            List<Object> list = new ArrayList<>();
            int size = random.nextInt(4);
            for (int i = 0; i < size; i++) {
                list.add(randomValue(random, depth + 1));
            }
            return list;
        }
        if (kind == 2) {
            return randomMap(random, depth + 1);
        }
        return randomScalar(random);
    }

    private static Map<String, Object> randomMap(Random random, int depth) {
        Map<String, Object> map = new LinkedHashMap<>();
        int size = random.nextInt(4);
        for (int i = 0; i < size; i++) {
            map.put(randomString(random), randomValue(random, depth + 1));
        }
        return map;
    }

    private static Instant randomTime(Random random) {
        return Instant.ofEpochMilli(random.nextLong(Instant.parse("0000-01-01T00:00:00Z").toEpochMilli(),
                Instant.parse("9999-12-31T23:59:59.999Z").toEpochMilli()));
    }

    private static <T> Optional<T> maybe(Random random, T value) {
        return random.nextBoolean() ? Optional.of(value) : Optional.empty();
    }

    private static MemoryFile randomFile(Random random) {
        List<String> tags = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            tags.add(randomString(random));
        }
        List<RelatedItem> related = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            Optional<String> id = maybe(random, VersionIds.newId("round-trip"));
            Optional<String> key = id.isEmpty() ? Optional.of(randomString(random)) : maybe(random, randomString(random));
            Map<String, Object> extra = randomMap(random, RelatedItem.EXTRA_DEPTH);
            extra.keySet().removeAll(RelatedItem.FIELD_NAMES);
            related.add(new RelatedItem(id, key, maybe(random, randomString(random)), "rel" + randomString(random),
                    maybe(random, randomTime(random)), extra));
        }
        Map<String, Object> extra = randomMap(random, 1);
        extra.keySet().removeAll(MemoryFile.FIELD_NAMES);
        String body = randomString(random).replaceAll("[\\uD800-\\uDFFF]", "?"); // UTF-8 cannot hold a lone half
        return new MemoryFile(VersionIds.newId("round-trip"), randomString(random), randomTime(random), randomTime(random),
                1 + random.nextInt(Integer.MAX_VALUE), maybe(random, randomString(random)),
                maybe(random, randomString(random)), tags, randomMap(random, 1), maybe(random, VersionIds.newId("round-trip")),
                related, maybe(random, randomString(random)), maybe(random, randomString(random)), random.nextBoolean(),
                random.nextBoolean() ? List.of() : List.of(VersionIds.newId("round-trip"), VersionIds.newId("round-trip")),
                maybe(random, VersionIds.newId("round-trip")), extra, body);
    }
}
