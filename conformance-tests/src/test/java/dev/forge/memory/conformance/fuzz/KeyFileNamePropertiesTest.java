package dev.forge.memory.conformance.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.conformance.Reliability;
import dev.forge.memory.spi.Keys;
import java.util.Optional;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.StringLength;

/**
 * jqwik properties (run by jqwik's own engine, which surefire picks up beside Jupiter) of the key to file name
 * mapping the file and markdown providers build paths from: any string is a valid key or an
 * {@link InvalidKeyException}; a valid key's file name is one path element that never escapes its directory, and
 * maps back to the key unless shortened.
 */
@Tag(Reliability.TAG)
class KeyFileNamePropertiesTest {

    @Property(tries = 1000)
    void any_text_is_a_safe_file_name_or_an_invalid_key(@ForAll("keys") String key) {
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
            assertThat(back).contains(key);
        } else {
            assertThat(back).isEmpty();
        }
    }

    @Property(tries = 200)
    void any_string_of_any_characters_gets_a_key_verdict(@ForAll @StringLength(max = 600) String anything) {
        try {
            assertThat(Keys.validate(anything)).isEqualTo(anything);
        } catch (InvalidKeyException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    @Provide
    Arbitrary<String> keys() {
        return FuzzInputs.keys();
    }
}
