package dev.forge.memory.conformance.fuzz;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomGenerator;
import net.jqwik.api.sessions.JqwikSession;

/**
 * jqwik generators of provider inputs: mostly valid keys, values, tags and metadata built from an alphabet rich in
 * separators, path pieces, quotes, operators and awkward Unicode, with the {@link HostileInputs} mixed in.
 *
 * <p>Tests draw samples with {@link #sample(Arbitrary, long, int, Consumer)} inside ordinary JUnit tests rather than
 * as {@code @Property} methods: the number of tries then follows {@code Reliability.count} (short or soak form, which
 * an annotation's constant cannot), and the tests keep JUnit's {@code @TempDir} and the conformance suite's
 * per-test provider. The seed is printed and can be replayed with {@code -Dforge.fuzz.seed=...}.
 */
public final class FuzzInputs {

    /** The characters keys and texts are built from: letters, digits, separators, quotes, operators, Unicode. */
    private static final String ALPHABET = "abcXYZ019 ._-:/\\~*?%[]{}()'\"`;,=<>!@#$^&|+\n"
            + "éß日本😀\u0301\u200b\ufeff\u2028";

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
     * Draws {@code count} samples of {@code arbitrary} with {@code seed} (the same seed gives the same samples) and
     * hands each to {@code action}, inside a jqwik session so that jqwik's generators work outside a property.
     */
    public static <T> void sample(Arbitrary<T> arbitrary, long seed, int count, Consumer<? super T> action) {
        JqwikSession.start();
        try {
            Random random = new Random(seed);
            RandomGenerator<T> generator = arbitrary.generatorWithEmbeddedEdgeCases(100);
            for (int i = 0; i < count; i++) {
                action.accept(generator.next(random).value());
            }
        } finally {
            JqwikSession.finish();
        }
    }

    /** Text from the awkward alphabet, with a few control characters and lone surrogates now and then. */
    public static Arbitrary<String> text(int maxLength) {
        Arbitrary<String> plain = Arbitraries.strings().withChars(ALPHABET).ofMinLength(0).ofMaxLength(maxLength);
        Arbitrary<String> anything = Arbitraries.strings().all().ofMaxLength(maxLength);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, plain),
                net.jqwik.api.Tuple.of(2, anything));
    }

    /** Keys: mostly valid (1 to 512 code points), some path escapes and hostile ones from {@link HostileInputs}. */
    public static Arbitrary<String> keys() {
        Arbitrary<String> pathy = Arbitraries.of("../", "..\\", "/", "\\", "./", "..", ".", "~", "%2e", "C:", ":", "a",
                "b", "日", ".md", ".json", " ", "\u0000", "\n").list().ofMinSize(1).ofMaxSize(12)
                .map(parts -> String.join("", parts));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, text(40).filter(s -> !s.isEmpty())),
                net.jqwik.api.Tuple.of(3, pathy),
                net.jqwik.api.Tuple.of(1, oneOf(HostileInputs.keys().stream().filter(k -> k.length() < 5000).toList())));
    }

    /** Values: text (with front-matter fences and JSON and YAML syntax) or a hostile value. */
    public static Arbitrary<String> values() {
        Arbitrary<String> fenced = Combinators.combine(text(30), text(30))
                .as((a, b) -> a + "\n---\n" + b + "\n---\n");
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, text(200)),
                net.jqwik.api.Tuple.of(2, fenced),
                net.jqwik.api.Tuple.of(1, oneOf(HostileInputs.values().stream().filter(v -> v.length() < 20_000).toList())));
    }

    /** Tag lists, mostly valid. */
    public static Arbitrary<List<String>> tags() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, text(20).filter(s -> !s.isBlank()).list().ofMaxSize(5)),
                net.jqwik.api.Tuple.of(1, oneOf(HostileInputs.tags())));
    }

    /** Metadata, mostly valid: strings, longs, doubles, booleans, lists and maps a few levels deep. */
    public static Arbitrary<Map<String, ?>> metadata() {
        Arbitrary<Object> leaf = Arbitraries.oneOf(text(20).map(s -> (Object) s), Arbitraries.longs().map(l -> (Object) l),
                Arbitraries.doubles().map(d -> (Object) d), Arbitraries.of(true, false).map(b -> (Object) b));
        Arbitrary<Object> nested = Arbitraries.recursive(() -> leaf,
                inner -> Arbitraries.oneOf(inner.list().ofMaxSize(3).map(l -> (Object) l),
                        Arbitraries.maps(text(8), inner).ofMaxSize(3).map(m -> (Object) m)), 0, 3);
        Arbitrary<Map<String, ?>> valid = Arbitraries.maps(text(12), nested).ofMaxSize(4).map(m -> (Map<String, ?>) m);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, valid),
                net.jqwik.api.Tuple.of(1, oneOf(HostileInputs.metadata())));
    }

    /**
     * One of {@code items}, picked by index: {@code Arbitraries.of} hashes its values, which overflows the stack on
     * the deeply nested hostile metadata.
     */
    private static <T> Arbitrary<T> oneOf(List<T> items) {
        List<T> copy = List.copyOf(items);
        return Arbitraries.integers().between(0, copy.size() - 1).map(copy::get);
    }

    /** Whole writes. */
    public static Arbitrary<Write> writes() {
        return Combinators.combine(keys(), values(), tags(), metadata()).as(Write::new);
    }

    /** Query patterns: globs from the awkward alphabet, and the hostile ones. */
    public static Arbitrary<String> patterns() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, text(20)),
                net.jqwik.api.Tuple.of(1, oneOf(HostileInputs.patterns())));
    }

    /** Search texts: words, operators, and the hostile ones. */
    public static Arbitrary<String> searchTexts() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, text(30)),
                net.jqwik.api.Tuple.of(1, oneOf(HostileInputs.searchTexts())));
    }
}
