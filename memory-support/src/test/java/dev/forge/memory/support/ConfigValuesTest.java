package dev.forge.memory.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import org.junit.jupiter.api.Test;

/** The config forms of enum constants and sizes that every provider's config record and settings description use. */
class ConfigValuesTest {

    enum Mode { FAST, SAFE, PARANOID }

    @Test
    void an_enum_constant_is_read_ignoring_case_and_spaces_and_written_in_lower_case() {
        assertThat(ConfigValues.parse(Mode.class, "mode", " Safe ")).isEqualTo(Mode.SAFE);
        assertThat(ConfigValues.id(Mode.PARANOID)).isEqualTo("paranoid");
        assertThat(ConfigValues.choices(Mode.class)).isEqualTo("one of: fast, safe, paranoid");
    }

    @Test
    void an_unknown_enum_value_is_refused_naming_the_key_and_every_allowed_value() {
        assertThatThrownBy(() -> ConfigValues.parse(Mode.class, "mode", "quick")).isInstanceOf(ConfigurationException.class)
                .hasMessage("'mode' cannot be 'quick': use fast, safe or paranoid.");
        assertThatThrownBy(() -> ConfigValues.parse(Mode.class, "mode", null)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'mode' cannot be 'null'");
    }

    @Test
    void a_size_is_written_in_the_largest_unit_that_divides_it_and_reads_back_the_same() {
        assertThat(ConfigValues.size(ByteSize.ofBytes(8L << 20))).isEqualTo("8MB");
        assertThat(ConfigValues.size(ByteSize.ofBytes(3L << 30))).isEqualTo("3GB");
        assertThat(ConfigValues.size(ByteSize.ofBytes(1536L << 10))).isEqualTo("1536KB");
        assertThat(ConfigValues.size(ByteSize.ofBytes(1000))).isEqualTo("1000");
        for (long bytes : new long[] {1, 1000, 64L << 10, 1536L << 10, 8L << 20, 3L << 30}) {
            ByteSize size = ByteSize.ofBytes(bytes);
            assertThat(ByteSize.parse(ConfigValues.size(size))).isEqualTo(size);
        }
    }
}
