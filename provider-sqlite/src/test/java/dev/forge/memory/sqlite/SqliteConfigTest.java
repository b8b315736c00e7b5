package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Scope;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.support.TimeSpan;
import dev.forge.memory.sqlite.internal.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Binding the {@code sqlite} provider's config block, and the settings reaching every connection. */
class SqliteConfigTest {

    @TempDir
    Path directory;

    private static SqliteConfig bind(Map<String, ?> values) {
        return ProviderConfig.of(values, ".forge/config.yaml", "memory.config").bind(SqliteConfig.class);
    }

    /** A pragma's value on the provider's write connection and on one of its read connections. */
    private static String[] pragma(SqliteMemoryProvider provider, String name) {
        Database database = provider.database();
        Database.Work<String> read = connection -> {
            try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery("PRAGMA " + name)) {
                rows.next();
                return rows.getString(1);
            }
        };
        return new String[] {database.onWriter("read a pragma", read), database.read("read a pragma", read)};
    }

    @Test
    void an_empty_block_takes_every_default() {
        SqliteConfig config = bind(Map.of());
        assertThat(config).isEqualTo(SqliteConfig.defaults());
        assertThat(config.path()).isEqualTo(".forge/memory.db");
        assertThat(config.synchronous()).isEqualTo(SqliteConfig.Synchronous.FULL);
        assertThat(config.busyTimeout().duration()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void snake_case_keys_bind_with_any_case_and_time_units() {
        SqliteConfig config = bind(Map.of("path", "data/mem.sqlite", "synchronous", "Normal", "busy_timeout", "250ms"));
        assertThat(config).isEqualTo(new SqliteConfig("data/mem.sqlite", SqliteConfig.Synchronous.NORMAL, TimeSpan.ofMillis(250)));
        assertThat(bind(Map.of("synchronous", "FULL")).synchronous()).isEqualTo(SqliteConfig.Synchronous.FULL);
        assertThat(bind(Map.of("busy_timeout", 2)).busyTimeout().toMillis()).isEqualTo(2000); // a plain number is seconds
        assertThat(bind(Map.of("busy_timeout", "0")).busyTimeout().toMillis()).isZero();
    }

    @Test
    void a_bad_synchronous_value_is_rejected_naming_the_field_and_the_choices() {
        assertThatThrownBy(() -> bind(Map.of("synchronous", "off")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("synchronous")
                .hasMessageContaining("'off'")
                .hasMessageContaining("full or normal")
                .satisfies(e -> assertThat(((ConfigurationException) e).field()).contains("memory.config.synchronous"));
    }

    @Test
    void unknown_keys_bad_times_and_blank_paths_are_rejected() {
        assertThatThrownBy(() -> bind(Map.of("busytimeout", "1s"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("Did you mean 'busy_timeout'")
                .hasMessageContaining("busy_timeout, global_path, path, search_fields, synchronous");
        assertThatThrownBy(() -> bind(Map.of("busy_timeout", "soon"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("busy_timeout");
        assertThatThrownBy(() -> bind(Map.of("busy_timeout", "30d"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("busy_timeout");
        assertThatThrownBy(() -> bind(Map.of("path", " "))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("path");
        assertThatThrownBy(() -> bind(Map.of("global_path", ""))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'global_path' must not be blank");
    }

    @Test
    void global_path_binds_and_resolves_like_path_and_defaults_to_the_forge_home() throws Exception {
        assertThat(bind(Map.of()).globalPath()).isNull();
        assertThat(bind(Map.of("global_path", "~/shared.db")).globalPath()).isEqualTo("~/shared.db");
        try (SqliteMemoryProvider provider = Stores.open(directory, Map.of("global_path", "data/global.db"))) {
            provider.set("k", "v", Scope.GLOBAL);
            assertThat(provider.globalDatabaseFile()).isEqualTo(directory.resolve("data/global.db").toRealPath());
        }
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            assertThat(provider.globalDatabaseFile()).isEqualTo(directory.resolve("forge-home/memory.db").toRealPath());
        }
    }

    @Test
    void the_template_describes_global_path_at_its_default() {
        assertThat(SqliteConfig.settings()).anySatisfy(setting -> {
            assertThat(setting.toString()).contains("global_path").contains("${FORGE_HOME:-~/.forge}/memory.db");
        });
    }

    @Test
    void the_factory_rejects_bad_config_before_touching_the_disk() {
        assertThatThrownBy(() -> Stores.open(directory, Map.of("synchronous", "extra"))).isInstanceOf(ConfigurationException.class);
        assertThatThrownBy(() -> Stores.open(directory, Map.of("base_path", "x"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("unknown key");
        assertThat(directory.resolve(".forge")).doesNotExist();
    }

    @Test
    void the_defaults_reach_every_connection() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            assertThat(provider.databaseFile()).endsWith(Path.of(".forge", "memory.db"));
            assertThat(pragma(provider, "synchronous")).containsOnly("2"); // FULL
            assertThat(pragma(provider, "busy_timeout")).containsOnly("5000");
            assertThat(pragma(provider, "journal_mode")).containsOnly("wal");
            assertThat(pragma(provider, "foreign_keys")).containsOnly("1");
        }
    }

    @Test
    void synchronous_normal_and_the_busy_timeout_reach_every_connection() {
        try (SqliteMemoryProvider provider = Stores.open(directory, Map.of("synchronous", "normal", "busy_timeout", "250ms"))) {
            provider.set("k", "v", Scope.PROJECT);
            assertThat(provider.config().busyTimeout().toMillis()).isEqualTo(250);
            assertThat(pragma(provider, "synchronous")).containsOnly("1"); // NORMAL
            assertThat(pragma(provider, "busy_timeout")).containsOnly("250");
        }
    }

    @Test
    void read_connections_cannot_write() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            assertThatThrownBy(() -> provider.database().read("write on a reader", connection -> {
                try (Statement statement = connection.createStatement()) {
                    return statement.executeUpdate("DELETE FROM entries");
                }
            })).isInstanceOf(dev.forge.memory.StorageException.class);
        }
    }

    @Test
    void a_relative_path_resolves_against_the_project_directory() throws Exception {
        try (SqliteMemoryProvider provider = Stores.open(directory, Map.of("path", "data/memories.db"))) {
            provider.set("k", "v", Scope.PROJECT);
        }
        assertThat(Files.size(directory.resolve("data/memories.db"))).isPositive();
    }
}
