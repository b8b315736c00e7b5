package dev.forge.memory.conformance.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.conformance.Reliability;
import dev.forge.memory.spi.Keys;
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

    private static void checkFileName(String key) {
        String name;
        try {
            name = Keys.toFileName(key);
        } catch (InvalidKeyException e) {
            assertThat(e.getMessage()).isNotBlank();
            assertThatThrownBy(() -> Keys.validate(key)).isInstanceOf(InvalidKeyException.class);
            return;
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
    }
}
