package dev.forge.memory.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code provider: relational} through {@link Memories}, on a class path without the sqlite provider: what it refuses
 * before it needs the embedded store, and what it says when that store is missing. Opening sqlite through it is tested
 * with the command line tool (memory-cli's Seed004ConfigTest), which has every provider.
 */
class RelationalProviderFactoryTest {

    @TempDir
    Path project;

    private ConfigurationException opening(String config) throws IOException {
        Files.createDirectories(project.resolve(".forge"));
        Files.writeString(project.resolve(".forge/config.yaml"), "memory:\n  provider: relational\n" + config);
        var builder = Memories.builder().projectDirectory(project).environment(Map.of("DB_SECRET_URL", "postgres://u:pw@db/x"))
                .userHome(project.resolve("no-home")).plugins(false);
        ConfigurationException[] thrown = new ConfigurationException[1];
        assertThatThrownBy(() -> builder.open().close()).isInstanceOfSatisfying(ConfigurationException.class, e -> thrown[0] = e);
        return thrown[0];
    }

    @Test
    void a_postgresql_url_selects_the_postgres_provider_and_names_its_jar_when_missing_masking_the_password()
            throws IOException {
        for (String url : new String[] {"postgresql://user:pass@localhost:5432/forge", "jdbc:postgresql://h/db", "postgres://h/db"}) {
            ConfigurationException e = opening("  config:\n    url: \"" + url + "\"\n    pool_size: 10\n");
            assertThat(e).hasMessageContaining("'postgres' provider").hasMessageContaining("provider-postgres")
                    .hasMessageNotContaining("pass");
            assertThat(e.field()).contains("memory.provider");
        }
        assertThat(opening("  config:\n    url: ${DB_SECRET_URL}\n")).hasMessageContaining("provider-postgres")
                .hasMessageNotContaining("pw");
    }

    @Test
    void other_servers_memory_databases_and_url_beside_path_are_refused() throws IOException {
        assertThat(opening("  config:\n    url: mysql://localhost/forge\n")).hasMessageContaining("jdbc:sqlite:PATH");
        assertThat(opening("  config:\n    url: \"jdbc:sqlite::memory:\"\n")).hasMessageContaining("':memory:'");
        assertThat(opening("  config:\n    url: a.db\n    path: b.db\n")).hasMessageContaining("both 'url' and 'path'");
        assertThat(opening("  config:\n    ssl: require\n")).hasMessageContaining("'memory.config.ssl'")
                .hasMessageContaining("embedded SQLite");
    }

    @Test
    void without_the_sqlite_provider_it_names_the_jar_to_add() throws IOException {
        assertThat(opening("  config:\n    url: sqlite:data/r.db\n")).hasMessageContaining("provider-sqlite")
                .hasMessageContaining("'sqlite'");
        assertThat(project.resolve("data")).doesNotExist();
    }
}
