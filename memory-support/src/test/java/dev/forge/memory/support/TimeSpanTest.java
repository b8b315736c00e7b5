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
    void units_and_plain_milliseconds_are_understood() {
        assertThat(TimeSpan.parse("250").duration()).isEqualTo(Duration.ofMillis(250));
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
                .isEqualTo(Duration.ofMillis(750));
        assertThatThrownBy(() -> ProviderConfig.of(Map.of("timeout", "soon")).bind(Settings.class))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("timeout");
    }
}
