package dev.forge.memory.support;

import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderRegistry;
import dev.forge.memory.spi.Suggestions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProviderConfigTest {

    enum Mode { FAST, SAFE }

    record Sample(String basePath, Boolean fsync, ByteSize maxFileSize, Mode mode) {
        Sample {
            basePath = basePath == null ? "memory" : basePath;
            fsync = fsync == null ? Boolean.TRUE : fsync;
            maxFileSize = maxFileSize == null ? ByteSize.parse("1MB") : maxFileSize;
            if (basePath.isBlank()) {
                throw new IllegalArgumentException("base_path must not be blank");
            }
        }
    }

    private static ProviderConfig config(Map<String, ?> values) {
        return ProviderConfig.of(values, ".forge/config.yaml", "memory.config");
    }

    @Test
    void missing_keys_take_the_records_defaults() {
        Sample sample = ProviderConfig.empty().bind(Sample.class);
        assertThat(sample).isEqualTo(new Sample("memory", true, new ByteSize(1024 * 1024), null));
    }

    @Test
    void snake_case_keys_bind_to_record_components() {
        Sample sample = config(Map.of("base_path", "/data", "fsync", false, "max_file_size", "10 MB", "mode", "SAFE")).bind(Sample.class);
        assertThat(sample.basePath()).isEqualTo("/data");
        assertThat(sample.fsync()).isFalse();
        assertThat(sample.maxFileSize().bytes()).isEqualTo(10L * 1024 * 1024);
        assertThat(sample.mode()).isEqualTo(Mode.SAFE);
    }

    @Test
    void sizes_bind_from_numbers_too() {
        assertThat(config(Map.of("max_file_size", 2048)).bind(Sample.class).maxFileSize().bytes()).isEqualTo(2048);
    }

    @Test
    void unknown_key_names_source_field_known_keys_and_a_suggestion() {
        assertThatThrownBy(() -> config(Map.of("bas_path", "x")).bind(Sample.class))
                .isInstanceOfSatisfying(ConfigurationException.class, e -> {
                    assertThat(e.getMessage()).contains(".forge/config.yaml").contains("memory.config.bas_path")
                            .contains("Did you mean 'base_path'?").contains("base_path, fsync, max_file_size, mode");
                    assertThat(e.source()).contains(".forge/config.yaml");
                    assertThat(e.field()).contains("memory.config.bas_path");
                });
    }

    @Test
    void unknown_key_far_from_any_known_one_gets_no_suggestion() {
        assertThatThrownBy(() -> config(Map.of("zzzzzzzz", 1)).bind(Sample.class))
                .isInstanceOf(ConfigurationException.class).hasMessageNotContaining("Did you mean");
    }

    @Test
    void wrong_types_name_the_field_and_what_was_expected() {
        assertThatThrownBy(() -> config(Map.of("fsync", "maybe")).bind(Sample.class))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("memory.config.fsync")
                .hasMessageContaining("true or false");
        assertThatThrownBy(() -> config(Map.of("mode", "turbo")).bind(Sample.class))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("memory.config.mode")
                .hasMessageContaining("fast, safe");
        assertThatThrownBy(() -> config(Map.of("max_file_size", "lots")).bind(Sample.class))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("max_file_size");
    }

    @Test
    void enum_values_match_ignoring_case() {
        assertThat(config(Map.of("mode", "safe")).bind(Sample.class).mode()).isEqualTo(Mode.SAFE);
        assertThat(config(Map.of("mode", "Fast")).bind(Sample.class).mode()).isEqualTo(Mode.FAST);
    }

    record Counted(Integer maxEntries) {
    }

    @Test
    void fractions_are_not_silently_cut_to_whole_numbers() {
        assertThat(config(Map.of("max_entries", 10)).bind(Counted.class).maxEntries()).isEqualTo(10);
        assertThatThrownBy(() -> config(Map.of("max_entries", 1.9)).bind(Counted.class))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("max_entries");
    }

    @Test
    void values_jackson_cannot_read_become_configuration_errors() {
        assertThatThrownBy(() -> config(Map.of("base_path", new Object())).bind(Sample.class))
                .isInstanceOf(ConfigurationException.class);
    }

    record Secretive(Boolean apiKeyEnabled, ByteSize tokenSize) {
    }

    @Test
    void errors_never_echo_the_value_of_a_secret_looking_setting() {
        assertThatThrownBy(() -> config(Map.of("api_key_enabled", "hunter2")).bind(Secretive.class))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("api_key_enabled").hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> config(Map.of("token_size", "hunter2")).bind(Secretive.class))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("token_size").hasMessageNotContaining("hunter2");
    }

    @Test
    void home_relative_paths_expand_to_the_user_home() {
        ProviderContext context = ProviderContext.builder().projectId("p").registry(ProviderRegistry.of()).build();
        assertThat(context.resolve("~/mem")).isEqualTo(java.nio.file.Path.of(System.getProperty("user.home"), "mem").toAbsolutePath());
        assertThat(context.resolve("~")).isEqualTo(java.nio.file.Path.of(System.getProperty("user.home")).toAbsolutePath());
    }

    @Test
    void values_the_record_rejects_become_configuration_errors() {
        assertThatThrownBy(() -> config(Map.of("base_path", " ")).bind(Sample.class))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("base_path must not be blank");
    }

    @Test
    void child_blocks_keep_source_and_path() {
        ProviderConfig parent = config(Map.of("storage", Map.of("provider", "file", "base_path", "x")));
        ProviderConfig child = parent.child("storage").orElseThrow();
        assertThat(child.path()).isEqualTo("memory.config.storage");
        assertThat(child.without("provider").values()).containsOnlyKeys("base_path");
        assertThatThrownBy(() -> config(Map.of("storage", "file")).child("storage")).isInstanceOf(ConfigurationException.class);
    }

    @Test
    void byte_sizes_parse_units_and_reject_nonsense() {
        assertThat(ByteSize.parse("512").bytes()).isEqualTo(512);
        assertThat(ByteSize.parse("64KB").bytes()).isEqualTo(65536);
        assertThat(ByteSize.parse("1 GiB").bytes()).isEqualTo(1L << 30);
        assertThat(ByteSize.parse("3m").bytes()).isEqualTo(3L << 20);
        assertThatThrownBy(() -> ByteSize.parse("0")).isInstanceOf(ConfigurationException.class);
        assertThatThrownBy(() -> ByteSize.parse("-1KB")).isInstanceOf(ConfigurationException.class);
        assertThatThrownBy(() -> ByteSize.parse("99999999999999999999GB")).isInstanceOf(ConfigurationException.class);
    }

    @Test
    void suggestions_pick_the_closest_name() {
        assertThat(Suggestions.closest("compresion", java.util.List.of("compression", "base_path"))).contains("compression");
        assertThat(Suggestions.closest("x", java.util.List.of("compression"))).isEmpty();
    }
}
