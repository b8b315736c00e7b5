package dev.forge.memory.conformance.fuzz;

import java.lang.Character.UnicodeBlock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.instancio.Instancio;
import org.instancio.settings.Keys;

/**
 * Generators ({@link Gen}) of provider inputs: mostly valid keys, values, tags and metadata built from an alphabet
 * rich in separators, path pieces, quotes, operators and awkward Unicode, random text from many Unicode blocks
 * (Instancio's string generator), edge cases (empty, longest, NUL, control characters, lone surrogates) and the
 * {@link HostileInputs} mixed in.
 *
 * <p>Tests draw samples with {@link #sample(Gen, long, int, Consumer)} inside ordinary JUnit tests: the number of tries
 * then follows {@code Reliability.count} (short or soak form), and the tests keep JUnit's {@code @TempDir} and the
 * conformance suite's per-test provider. Every value comes from one {@link Random} seeded with {@link #seed()}, which
 * the tests print on failure and which {@code -Dforge.fuzz.seed=...} replays.
 */
public final class FuzzInputs {

    /** The characters keys and texts are built from: letters, digits, separators, quotes, operators, Unicode. */
    private static final String ALPHABET = "abcXYZ019 ._-:/\\~*?%[]{}()'\"`;,=<>!@#$^&|+\n"
            + "éß日本😀\u0301\u200b\ufeff\u2028";

    /** Characters random Unicode text rarely holds on its own: NUL, controls, lone surrogates, noncharacters. */
    private static final String RARE = "\u0000\u0001\t\n\r\u001b\u001f\u007f\u0085\ud800\udbff\udc00\udfff\ufffe\uffff\ufeff\u202e";

    /** The blocks random Unicode text is drawn from: scripts, combining marks, format characters, emoji, private use. */
    private static final UnicodeBlock[] BLOCKS = {UnicodeBlock.BASIC_LATIN, UnicodeBlock.LATIN_1_SUPPLEMENT,
        UnicodeBlock.LATIN_EXTENDED_A, UnicodeBlock.COMBINING_DIACRITICAL_MARKS, UnicodeBlock.GREEK, UnicodeBlock.CYRILLIC,
        UnicodeBlock.HEBREW, UnicodeBlock.ARABIC, UnicodeBlock.DEVANAGARI, UnicodeBlock.THAI, UnicodeBlock.GENERAL_PUNCTUATION,
        UnicodeBlock.LETTERLIKE_SYMBOLS, UnicodeBlock.HIRAGANA, UnicodeBlock.CJK_UNIFIED_IDEOGRAPHS, UnicodeBlock.HANGUL_SYLLABLES,
        UnicodeBlock.PRIVATE_USE_AREA, UnicodeBlock.HALFWIDTH_AND_FULLWIDTH_FORMS, UnicodeBlock.SPECIALS,
        UnicodeBlock.MATHEMATICAL_ALPHANUMERIC_SYMBOLS, UnicodeBlock.EMOTICONS,
        UnicodeBlock.MISCELLANEOUS_SYMBOLS_AND_PICTOGRAPHS, UnicodeBlock.CJK_UNIFIED_IDEOGRAPHS_EXTENSION_B};

    private FuzzInputs() {
    }

    /** One write: key, value, tags and metadata. */
    public record Write(String key, String value, List<String> tags, Map<String, ?> metadata) {
    }

    /** The seed of this run: {@code -Dforge.fuzz.seed} if given, else a fresh random one. */
    public static long seed() {
        return Long.getLong("forge.fuzz.seed", new Random().nextLong());
    }

    /**
     * Draws {@code count} samples of {@code generator} from a {@link Random} seeded with {@code seed} (the same seed
     * gives the same samples) and hands each to {@code action}. A sample whose action fails ends the run with an
     * {@link AssertionError} that names the sample and the seed to replay it with.
     */
    public static <T> void sample(Gen<T> generator, long seed, int count, Consumer<? super T> action) {
        Random random = new Random(seed);
        for (int i = 0; i < count; i++) {
            T value = generator.next(random);
            try {
                action.accept(value);
            } catch (AssertionError | RuntimeException e) {
                String message = String.valueOf(e.getMessage());
                if (message.contains("forge.fuzz.seed")) {
                    throw e;
                }
                throw new AssertionError(message + " (sample " + (i + 1) + " of " + count
                        + "; replay with -Dforge.fuzz.seed=" + seed + ")", e);
            }
        }
    }

    /**
     * Text of up to {@code maxLength} chars: mostly from the awkward alphabet, some {@link #anything random Unicode},
     * and edge cases (empty, the longest, NUL, control characters, lone surrogates, combining marks).
     */
    public static Gen<String> text(int maxLength) {
        Gen<String> plain = random -> {
            int length = Gen.between(0, maxLength).next(random);
            StringBuilder text = new StringBuilder(length);
            for (int i = 0; i < length; i++) {
                text.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
            return text.toString();
        };
        return Gen.frequency(7, plain, 2, anything(maxLength), 1, edgeCases(maxLength));
    }

    /**
     * Any text of up to {@code maxLength} chars: Instancio's random strings from many Unicode blocks, one in four
     * with a NUL, control character, lone surrogate or noncharacter put in at a random place, and the edge cases.
     */
    public static Gen<String> anything(int maxLength) {
        Gen<String> unicode = random -> {
            String text = Instancio.gen().withSetting(Keys.SEED, random.nextLong()).string().unicode(BLOCKS)
                    .length(0, maxLength).allowEmpty().get();
            if (random.nextInt(4) == 0) {
                int at = random.nextInt(text.length() + 1);
                text = text.substring(0, at) + RARE.charAt(random.nextInt(RARE.length())) + text.substring(at);
            }
            // cut in chars, not code points: a cut through a surrogate pair leaves a lone surrogate, which is wanted
            return text.length() > maxLength ? text.substring(0, maxLength) : text;
        };
        return Gen.frequency(9, unicode, 1, edgeCases(maxLength));
    }

    /** The edge cases of text up to {@code maxLength} chars long. */
    private static Gen<String> edgeCases(int maxLength) {
        List<String> edges = new ArrayList<>(List.of("", " ", "e\u0301", "😀", "a".repeat(maxLength),
                "😀".repeat(maxLength / 2), "日".repeat(maxLength)));
        RARE.chars().forEach(c -> edges.add(String.valueOf((char) c)));
        return Gen.of(edges.stream().filter(edge -> edge.length() <= maxLength).toList());
    }

    /** Keys: mostly valid (1 to 512 code points), some path escapes and hostile ones from {@link HostileInputs}. */
    public static Gen<String> keys() {
        Gen<String> pathy = Gen.of("../", "..\\", "/", "\\", "./", "..", ".", "~", "%2e", "C:", ":", "a", "b", "日", ".md",
                ".json", " ", "\u0000", "\n").list(1, 12).map(parts -> String.join("", parts));
        return Gen.frequency(6, text(40).filter(s -> !s.isEmpty()), 3, pathy,
                1, Gen.of(HostileInputs.keys().stream().filter(k -> k.length() < 5000).toList()));
    }

    /** Values: text (with front-matter fences and JSON and YAML syntax) or a hostile value. */
    public static Gen<String> values() {
        Gen<String> text = text(30);
        Gen<String> fenced = random -> text.next(random) + "\n---\n" + text.next(random) + "\n---\n";
        return Gen.frequency(6, text(200), 2, fenced,
                1, Gen.of(HostileInputs.values().stream().filter(v -> v.length() < 20_000).toList()));
    }

    /** Tag lists, mostly valid. */
    public static Gen<List<String>> tags() {
        return Gen.frequency(8, text(20).filter(s -> !s.isBlank()).list(0, 5), 1, Gen.of(HostileInputs.tags()));
    }

    /** Metadata, mostly valid: strings, longs, doubles, booleans, lists and maps up to three levels deep. */
    public static Gen<Map<String, ?>> metadata() {
        List<Gen<Object>> nested = new ArrayList<>();
        nested.add(Gen.<Object>oneOf(text(20), longs(), doubles(), Gen.of(true, false)));
        for (int depth = 1; depth <= 3; depth++) {
            Gen<Object> inner = nested.get(depth - 1);
            nested.add(Gen.<Object>oneOf(inner.list(0, 3), Gen.maps(text(8), inner, 3)));
        }
        Gen<Map<String, ?>> valid = random -> Gen.maps(text(12), nested.get(random.nextInt(nested.size())), 4).next(random);
        return Gen.frequency(8, valid, 1, Gen.of(HostileInputs.metadata()));
    }

    /** Longs: the extremes, zero and one now and then, else any. */
    private static Gen<Long> longs() {
        return Gen.<Long>frequency(9, Random::nextLong, 1, Gen.of(0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE));
    }

    /** Doubles: the extremes and tiny ones now and then, else any of a wide range. */
    private static Gen<Double> doubles() {
        return Gen.<Double>frequency(9, random -> (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(40) - 20),
                1, Gen.of(0.0, 1.0, -1.0, 0.01, Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE));
    }

    /** Whole writes. */
    public static Gen<Write> writes() {
        Gen<String> keys = keys();
        Gen<String> values = values();
        Gen<List<String>> tags = tags();
        Gen<Map<String, ?>> metadata = metadata();
        return random -> new Write(keys.next(random), values.next(random), tags.next(random), metadata.next(random));
    }

    /**
     * Path-like keys: 1 to 10 pieces of traversal ({@code ../}, {@code ..\\}, encoded dots), absolute and drive
     * roots, separators, NUL, newlines, right-to-left override, reserved file endings and directories
     * ({@code .git/}, {@code .forge/}), and {@code outside}, an absolute path a key must never reach, with and
     * without a separator after it.
     */
    public static Gen<String> pathLikeKeys(String outside) {
        Gen<String> piece = Gen.of("../", "..\\", "..", "/", "\\", "./", ".", "%2e%2e%2f", "..%2f", "%00",
                "~/", "C:", "C:\\", "\\\\", "//", ":", "a", "b/", "\u65e5/", ".md", ".json", ".gz", " ", ".git/",
                ".forge/", "\u0000", "\n", "\u202e", outside, outside + "/", "escaped");
        return piece.list(1, 10).map(parts -> String.join("", parts));
    }

    /** Query patterns: globs from the awkward alphabet, and the hostile ones. */
    public static Gen<String> patterns() {
        return Gen.frequency(3, text(20), 1, Gen.of(HostileInputs.patterns()));
    }

    /** Search texts: words, operators, and the hostile ones. */
    public static Gen<String> searchTexts() {
        return Gen.frequency(3, text(30), 1, Gen.of(HostileInputs.searchTexts()));
    }
}
