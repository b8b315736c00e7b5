package dev.forge.memory.conformance.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.conformance.ContractSupport;
import dev.forge.memory.conformance.Reliability;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes a provider through the SPI: random and hostile keys, values, tags, metadata, query patterns and search
 * texts. Every call either succeeds or throws a {@link MemoryException} subclass (never an
 * {@code IllegalArgumentException}, {@code NullPointerException}, {@code StackOverflowError} or
 * {@code OutOfMemoryError}); an accepted write reads back exactly as {@code set} returned it; a rejected one changes
 * nothing; and every entry accepted earlier still reads back, queries and passes {@code doctor()} afterwards.
 *
 * <p>The number of fuzzed inputs is {@code Reliability.count("fuzz.tries", shortFormTries(), 20000)}, on top of the fixed
 * {@link HostileInputs}. A provider's test extends this class and implements {@link #openProvider}, as for the
 * conformance suite, and {@link #providerName()} for the figures.
 */
@Tag(Reliability.TAG)
public abstract class SpiFuzzContract extends ContractSupport {

    private static final Scope[] SCOPES = Scope.values();

    private final Map<Ref, MemoryEntry> accepted = new HashMap<>();
    private long tried;
    private long rejected;

    /** The provider's name in the reliability figures, such as {@code "sqlite"}. */
    protected abstract String providerName();

    /**
     * The number of fuzzed writes in the short form: 100, fewer for a provider whose every write costs a commit to
     * disk (the build's time budget); the soak form is 20,000 for every provider.
     */
    protected int shortFormTries() {
        return 100;
    }

    @Test
    void hostile_and_random_inputs_round_trip_or_get_a_typed_error_and_the_store_stays_readable() {
        long seed = FuzzInputs.seed();
        int tries = Reliability.count("fuzz.tries", shortFormTries(), 20_000);
        String replay = " (replay with -Dforge.fuzz.seed=" + seed + ")";
        try {
            fixedHostileInputs();
            checkStore("after the fixed hostile inputs");
            Random random = new Random(seed);
            int[] step = {0};
            FuzzInputs.sample(FuzzInputs.writes(), seed, tries, write -> {
                Scope scope = SCOPES[random.nextInt(SCOPES.length)];
                write(write.key(), write.value(), scope, write.tags(), write.metadata());
                if (random.nextInt(10) == 0) {
                    delete(write.key(), scope);
                }
                if (++step[0] % 50 == 0) {
                    checkEntries("after " + step[0] + " fuzzed writes");
                }
            });
            FuzzInputs.sample(FuzzInputs.patterns(), seed, tries / 4, this::query);
            FuzzInputs.sample(FuzzInputs.searchTexts(), seed, tries / 4, this::search);
            checkStore("at the end");
            reopen();
            checkStore("after reopening");
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + replay, e);
        }
        Reliability.report("fuzz", providerName(), "inputs tried", tried);
        Reliability.report("fuzz", providerName(), "typed rejections", rejected);
        assertThat(accepted).as("some fuzzed writes must be valid").isNotEmpty();
    }

    private void fixedHostileInputs() {
        for (String key : HostileInputs.keys()) {
            write(key, "value of a hostile key", Scope.PROJECT, List.of("hostile"), Map.of("k", 1L));
            get(key, Scope.PROJECT);
        }
        for (String value : HostileInputs.values()) {
            write("hostile-value", value, Scope.PROJECT, List.of(), Map.of());
        }
        for (List<String> tags : HostileInputs.tags()) {
            write("hostile-tags", "v", Scope.SESSION, tags, Map.of());
        }
        for (Map<String, ?> metadata : HostileInputs.metadata()) {
            write("hostile-metadata", "v", Scope.GLOBAL, List.of(), metadata);
        }
        HostileInputs.patterns().forEach(this::query);
        HostileInputs.searchTexts().forEach(this::search);
        // invalid keys to delete, and a few valid ones: the fuzzed writes delete more
        List<String> valid = HostileInputs.keys().stream().filter(SpiFuzzContract::validKey).limit(3).toList();
        HostileInputs.keys().stream().filter(key -> !validKey(key) || valid.contains(key)).forEach(key -> delete(key, Scope.PROJECT));
    }

    private void write(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
        Optional<MemoryEntry> before = Optional.ofNullable(accepted.get(new Ref(scope, key)));
        Optional<MemoryEntry> stored = typed("set of key '" + shorten(key) + "'",
                () -> provider.set(key, value, scope, tags, metadata));
        if (stored.isPresent()) {
            MemoryEntry entry = stored.get();
            assertThat(entry.key()).as("the key as stored").isEqualTo(key);
            assertThat(entry.value()).as("the value of '" + shorten(key) + "' as stored").isEqualTo(value);
            assertThat(entry.scope()).isEqualTo(scope);
            accepted.put(Ref.of(entry), entry);
            assertThat(get(key, scope)).as("get after set of '" + shorten(key) + "'").contains(entry);
        } else if (validKey(key)) {
            assertThat(get(key, scope)).as("a rejected write of '" + shorten(key) + "' changes nothing").isEqualTo(before);
        }
    }

    private void delete(String key, Scope scope) {
        Optional<Boolean> deleted = typed("delete of key '" + shorten(key) + "'", () -> provider.delete(key, scope));
        if (deleted.isPresent()) {
            assertThat(deleted.get()).as("delete of '" + shorten(key) + "' reports whether it was there")
                    .isEqualTo(accepted.remove(new Ref(scope, key)) != null);
        }
    }

    private Optional<MemoryEntry> get(String key, Scope scope) {
        return typed("get of key '" + shorten(key) + "'", () -> provider.get(key, scope)).flatMap(found -> found);
    }

    private void query(String pattern) {
        typed("query of pattern '" + shorten(pattern) + "'", () -> provider.query(Query.builder().pattern(pattern).build()))
                .ifPresent(found -> found.forEach(entry -> assertThat(entry).as("a queried entry is one stored")
                        .isEqualTo(accepted.get(Ref.of(entry)))));
    }

    private void search(String text) {
        typed("search for '" + shorten(text) + "'", () -> provider.search(SearchRequest.keyword(text)))
                .ifPresent(hits -> hits.forEach(hit -> assertThat(accepted).as("a hit is an entry stored")
                        .containsKey(Ref.of(hit.entry()))));
    }

    /** Runs {@code call}: its result, or empty for a typed rejection; anything else fails the test. */
    private <T> Optional<T> typed(String what, Callable<T> call) {
        tried++;
        try {
            return Optional.of(call.call());
        } catch (MemoryException e) {
            rejected++;
            assertThat(e.getMessage()).as("the message of a rejected " + what).isNotBlank();
            return Optional.empty();
        } catch (Throwable e) {
            return fail("The " + what + " threw " + e.getClass().getName() + " instead of a MemoryException subclass: "
                    + shorten(String.valueOf(e.getMessage())), e);
        }
    }

    /** Every accepted entry reads back exactly, the full query lists exactly them, and doctor finds nothing wrong. */
    private void checkStore(String when) {
        checkEntries(when);
        assertThat(provider.doctor()).as(when + ": doctor").isEmpty();
    }

    /** Every accepted entry reads back exactly, and the full query lists exactly them. */
    private void checkEntries(String when) {
        for (MemoryEntry entry : accepted.values()) {
            assertThat(provider.get(entry.key(), entry.scope())).as(when + ": get of '" + shorten(entry.key()) + "'")
                    .contains(entry);
        }
        List<MemoryEntry> expected = new ArrayList<>(accepted.values());
        assertThat(provider.query(Query.builder().scopes(SCOPES).limit(Query.UNLIMITED).build()))
                .as(when + ": every entry accepted so far, and only those").containsExactlyInAnyOrderElementsOf(expected);
    }

    /** Where an entry lives, without the key checks of {@code EntryRef}: rejected keys are looked up too. */
    private record Ref(Scope scope, String key) {
        static Ref of(MemoryEntry entry) {
            return new Ref(entry.scope(), entry.key());
        }
    }

    private static boolean validKey(String key) {
        try {
            dev.forge.memory.Keys.validate(key);
            return true;
        } catch (MemoryException e) {
            return false;
        }
    }

    private static String shorten(String text) {
        String printable = text.codePoints().limit(60)
                .collect(StringBuilder::new, (b, c) -> b.append(c < 0x20 ? "\\u" + String.format("%04x", c) : Character.toString(c)),
                        StringBuilder::append).toString();
        return text.length() > 60 ? printable + "...(" + text.length() + " chars)" : printable;
    }
}
