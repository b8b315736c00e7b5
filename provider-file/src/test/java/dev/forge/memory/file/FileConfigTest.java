package dev.forge.memory.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.ProviderConfig;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Binding the {@code file} provider's config block. */
class FileConfigTest {

    @TempDir
    Path store;

    private static FileConfig bind(Map<String, ?> values) {
        return ProviderConfig.of(values, ".forge/config.yaml", "memory.config").bind(FileConfig.class);
    }

    @Test
    void an_empty_block_takes_every_default() {
        FileConfig config = bind(Map.of());
        assertThat(config).isEqualTo(FileConfig.defaults());
        assertThat(config.basePath()).isEqualTo(".forge/memory");
        assertThat(config.compression()).isEqualTo(FileConfig.Compression.NONE);
        assertThat(config.maxFileSize().bytes()).isEqualTo(8L * 1024 * 1024);
        assertThat(config.fsync()).isTrue();
        assertThat(config.globalPath()).as("the default, $FORGE_HOME/file, is computed at open").isNull();
    }

    @Test
    void global_path_binds_and_a_blank_one_is_rejected() {
        assertThat(bind(Map.of("global_path", "~/shared-memories")).globalPath()).isEqualTo("~/shared-memories");
        assertThatThrownBy(() -> bind(Map.of("global_path", " "))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("global_path");
    }

    @Test
    void snake_case_keys_bind_with_lower_case_enum_values_and_size_units() {
        FileConfig config = bind(Map.of("base_path", "memory", "compression", "gzip", "max_file_size", "512KB", "fsync", false));
        assertThat(config).isEqualTo(new FileConfig("memory", FileConfig.Compression.GZIP,
                dev.forge.memory.support.ByteSize.ofBytes(512 * 1024), false));
        assertThat(bind(Map.of("compression", "NONE")).compression()).isEqualTo(FileConfig.Compression.NONE);
    }

    @Test
    void an_unknown_key_is_rejected_naming_it_and_the_known_keys() {
        assertThatThrownBy(() -> bind(Map.of("compresion", "gzip")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("compresion")
                .hasMessageContaining("Did you mean 'compression'")
                .hasMessageContaining("base_path, compression, fsync, global_path, max_file_size")
                .satisfies(e -> assertThat(((ConfigurationException) e).source()).contains(".forge/config.yaml"));
    }

    @Test
    void a_bad_compression_value_is_rejected_naming_the_field_and_the_choices() {
        assertThatThrownBy(() -> bind(Map.of("compression", "zip")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("compression")
                .hasMessageContaining("zip")
                .hasMessageContaining("none")
                .hasMessageContaining("gzip")
                .satisfies(e -> assertThat(((ConfigurationException) e).field()).contains("memory.config.compression"));
    }

    @Test
    void bad_sizes_flags_and_paths_are_rejected() {
        assertThatThrownBy(() -> bind(Map.of("max_file_size", "huge"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("max_file_size");
        assertThatThrownBy(() -> bind(Map.of("max_file_size", 0))).isInstanceOf(ConfigurationException.class);
        assertThatThrownBy(() -> bind(Map.of("fsync", "sometimes"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("fsync");
        assertThatThrownBy(() -> bind(Map.of("base_path", "  "))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("base_path");
    }

    @Test
    void the_factory_rejects_bad_config_before_touching_the_disk() {
        Path base = store.resolve("not-created");
        assertThatThrownBy(() -> Stores.open(base, Map.of("compression", "brotli"))).isInstanceOf(ConfigurationException.class);
        assertThatThrownBy(() -> Stores.open(base, Map.of("path", "x"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("unknown key");
        assertThat(base).doesNotExist();
    }

    @Test
    void fsync_can_be_turned_off() {
        try (FileMemoryProvider provider = Stores.open(store, Map.of("fsync", false))) {
            provider.set("k", "v", dev.forge.memory.Scope.PROJECT);
            assertThat(provider.config().fsync()).isFalse();
            assertThat(provider.get("k", dev.forge.memory.Scope.PROJECT)).isPresent();
        }
    }
}
