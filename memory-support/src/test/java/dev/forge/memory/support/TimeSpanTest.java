package dev.forge.memory.support;

import dev.forge.memory.spi.ProviderConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimeSpanTest {

    record Settings(TimeSpan timeout) {
    }

    @Test
    void units_and_plain_seconds_are_understood() {
        assertThat(TimeSpan.parse("250").duration()).isEqualTo(Duration.ofSeconds(250));
        assertThat(TimeSpan.parse("3600").duration()).isEqualTo(Duration.ofHours(1));
        assertThat(TimeSpan.parse("500ms").duration()).isEqualTo(Duration.ofMillis(500));
        assertThat(TimeSpan.parse("5s").duration()).isEqualTo(Duration.ofSeconds(5));
        assertThat(TimeSpan.parse(" 10 M ").duration()).isEqualTo(Duration.ofMinutes(10));
        assertThat(TimeSpan.parse("1h").duration()).isEqualTo(Duration.ofHours(1));
        assertThat(TimeSpan.parse("2d").duration()).isEqualTo(Duration.ofDays(2));
        assertThat(TimeSpan.parse("0").duration()).isZero();
    }

    @Test
    void anything_else_is_a_configuration_error_naming_the_text() {
        for (String text : new String[] {"", "-1s", "1.5s", "5 seconds", "1w", "s"}) {
            assertThatThrownBy(() -> TimeSpan.parse(text)).as(text).isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("'" + text + "'");
        }
        assertThatThrownBy(() -> TimeSpan.parse("99999999999999999999d")).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("too long");
        assertThatThrownBy(() -> TimeSpan.parse("999999999999999d")).isInstanceOf(ConfigurationException.class);
        assertThatThrownBy(() -> TimeSpan.ofMillis(-1)).isInstanceOf(ConfigurationException.class);
    }

    @Test
    void binds_from_config_as_text_or_number() {
        assertThat(ProviderConfig.of(Map.of("timeout", "5s")).bind(Settings.class).timeout().duration())
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(ProviderConfig.of(Map.of("timeout", 750)).bind(Settings.class).timeout().duration())
                .isEqualTo(Duration.ofSeconds(750));
        assertThat(ProviderConfig.of(Map.of("timeout", 3600)).bind(Settings.class).timeout().duration())
                .isEqualTo(Duration.ofHours(1));
        assertThatThrownBy(() -> ProviderConfig.of(Map.of("timeout", "soon")).bind(Settings.class))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("timeout");
    }

    @Test
    void errors_say_the_units() {
        assertThatThrownBy(() -> TimeSpan.parse("soon")).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("seconds").hasMessageContaining("250ms").hasMessageContaining("1h");
        assertThatThrownBy(() -> TimeSpan.ofSeconds(Long.MAX_VALUE)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("too long");
    }

    @Test
    void written_back_with_its_unit_it_reads_back_the_same() {
        for (String text : new String[] {"0", "250ms", "90s", "5m", "1h", "2d", "3600", "1500ms", "61s"}) {
            TimeSpan span = TimeSpan.parse(text);
            assertThat(TimeSpan.parse(span.toString())).as(text).isEqualTo(span);
        }
        assertThat(TimeSpan.parse("3600")).hasToString("1h");
        assertThat(TimeSpan.parse("1500ms")).hasToString("1500ms");
    }
}
