package dev.forge.memory.conformance.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.conformance.Reliability;
import dev.forge.memory.Keys;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The key to file name mapping the file and markdown providers build paths from, fuzzed with seeded samples: any
 * string is a valid key or an {@link InvalidKeyException}; a valid key's file name is one path element that never
 * escapes its directory, and maps back to the key unless shortened.
 */
@Tag(Reliability.TAG)
class KeyFileNameFuzzTest {

    @Test
    void any_text_is_a_safe_file_name_or_an_invalid_key() {
        long seed = FuzzInputs.seed();
        FuzzInputs.sample(FuzzInputs.keys(), seed, 1000, key -> {
            try {
                checkFileName(key);
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + " (replay with -Dforge.fuzz.seed=" + seed + ")", e);
            }
        });
    }

    /**
     * The name half of "file names never escape their directory", at full size in every build: ten thousand
     * path-like keys ({@link FuzzInputs#pathLikeKeys}), each a single safe file name or an invalid key. The
     * providers' {@code PathEscapeContract} tests write such keys to real stores.
     */
    @Test
    void ten_thousand_path_like_keys_are_each_one_safe_file_name_or_an_invalid_key() {
        long seed = FuzzInputs.seed();
        int attempts = Reliability.count("paths.names", 10_000, 1_000_000);
        long[] refused = {0};
        FuzzInputs.sample(FuzzInputs.pathLikeKeys("/etc/forge-escape"), seed, attempts, key -> {
            try {
                if (!checkFileName(key)) {
                    refused[0]++;
                }
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + " (replay with -Dforge.fuzz.seed=" + seed + ")", e);
            }
        });
        Reliability.report("paths", "key to file name", "hostile keys tried", attempts);
        Reliability.report("paths", "key to file name", "keys refused as invalid", refused[0]);
    }

    @Test
    void any_string_of_any_characters_gets_a_key_verdict() {
        long seed = FuzzInputs.seed();
        FuzzInputs.sample(FuzzInputs.anything(600), seed, 200, anything -> {
            try {
                assertThat(Keys.validate(anything)).isEqualTo(anything);
            } catch (InvalidKeyException e) {
                assertThat(e.getMessage()).as("replay with -Dforge.fuzz.seed=" + seed).isNotBlank();
            }
        });
    }

    /** Checks {@code key}'s file name; false if the key is invalid (and refused as such). */
    private static boolean checkFileName(String key) {
        String name;
        try {
            name = Keys.toFileName(key);
        } catch (InvalidKeyException e) {
            assertThat(e.getMessage()).isNotBlank();
            assertThatThrownBy(() -> Keys.validate(key)).isInstanceOf(InvalidKeyException.class);
            return false;
        }
        assertThat(name).isNotEmpty().hasSizeLessThanOrEqualTo(Keys.MAX_FILE_NAME_LENGTH)
                .doesNotContain("/", "\\", ":", "\u0000").isNotIn(".", "..").doesNotStartWith(".").doesNotEndWith(".");
        assertThat(name.chars()).allMatch(c -> c > 0x20 && c < 0x7f);
        Optional<String> back = Keys.fromFileName(name);
        if (name.indexOf('~') < 0) {
            assertThat(back).as("the key of file name " + name).contains(key);
        } else {
            assertThat(back).isEmpty();
        }
        return true;
    }
}
