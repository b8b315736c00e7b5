package dev.forge.memory.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.postgres.internal.Endpoint;
import dev.forge.memory.postgres.testserver.LocalPostgres;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The postgres provider's settings: URL forms, defaults and refusals, the password kept out of every message, a server
 * that is down or refuses the login, the text search language, and tables written by a newer forge-memory.
 */
class PostgresConfigTest {

    @TempDir
    Path directory;

    private static String database;

    private static synchronized String database() {
        if (database == null) {
            database = TestPostgres.newDatabase();
        }
        return database;
    }

    private MemoryProvider open(Map<String, ?> settings) {
        ProviderContext context = ProviderContext.builder().config(ProviderConfig.of(settings)).projectId("p")
                .sessionId("s").baseDirectory(directory).forgeHome(directory.resolve("home")).build();
        return new PostgresMemoryProviderFactory().open(context);
    }

    private static Map<String, Object> on(String schema) {
        Map<String, Object> settings = TestPostgres.connection(database());
        settings.put("schema", schema);
        return settings;
    }

    @Test
    void url_forms_give_host_port_database_and_login() {
        Endpoint libpq = Endpoint.parse("postgresql://user:p%40ss@db.example:6543/forge?application_name=x");
        assertThat(libpq).extracting(Endpoint::host, Endpoint::port, Endpoint::database, Endpoint::user, Endpoint::password)
                .containsExactly("db.example", 6543, "forge", "user", "p@ss");
        assertThat(libpq.parameters()).containsEntry("application_name", "x");
        assertThat(libpq.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:6543/forge");
        assertThat(libpq.toString()).isEqualTo("db.example:6543/forge").doesNotContain("p@ss");
        Endpoint jdbc = Endpoint.parse("jdbc:postgresql://localhost/forge?user=u&password=secret");
        assertThat(jdbc).extracting(Endpoint::port, Endpoint::user, Endpoint::password).containsExactly(5432, "u", "secret");
        assertThat(Endpoint.parse("postgres://h/db").host()).isEqualTo("h");
    }

    @Test
    void urls_it_cannot_use_are_refused_with_the_forms_that_work_and_the_password_masked() {
        assertThatThrownBy(() -> Endpoint.parse("mysql://u:hunter2@h/db")).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("postgresql://user:password@host:5432/database").hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> Endpoint.parse("postgresql://u:hunter2@h:5432")).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("no database").hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> Endpoint.parse("postgresql://...")).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("no host");
        assertThat(Endpoint.mask("postgresql://u:hunter2@h/db and jdbc:postgresql://h/db?user=u&password=hunter2"))
                .doesNotContain("hunter2");
    }

    @Test
    void defaults_bad_values_and_unknown_keys() {
        PostgresConfig defaults = PostgresConfig.defaults();
        assertThat(defaults).extracting(PostgresConfig::url, PostgresConfig::schema, PostgresConfig::poolSize,
                PostgresConfig::language).containsExactly("postgresql://localhost:5432/forge", "forge_memory", 10, "english");
        assertThat(defaults.ssl()).isEqualTo(PostgresConfig.Ssl.PREFER);
        assertThat(PostgresConfig.Ssl.parse("verify-full")).isEqualTo(PostgresConfig.Ssl.VERIFY_FULL);
        assertThat(PostgresConfig.Ssl.VERIFY_CA.id()).isEqualTo("verify-ca");
        assertThatThrownBy(() -> PostgresConfig.Ssl.parse("maybe")).isInstanceOf(ConfigurationException.class);
        assertThatThrownBy(() -> defaults.withSchema("Bad-Name")).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'schema'");
        assertThatThrownBy(() -> open(Map.of("url", "postgresql://h/db", "pool_sise", 3)))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("pool_sise").hasMessageContaining("pool_size");
        PostgresConfig secret = new PostgresConfig("postgresql://u:hunter2@h/db", "u", "hunter3", null, null, null, null,
                null, null);
        assertThat(secret.toString()).doesNotContain("hunter2").doesNotContain("hunter3");
    }

    @Test
    void a_server_that_is_down_is_unavailable_naming_host_and_port() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        int closed = port;
        assertThatThrownBy(() -> open(Map.of("url", "postgresql://u:hunter2@127.0.0.1:" + closed + "/forge",
                "connect_timeout", "1s"))).isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("127.0.0.1:" + closed).hasMessageContaining("Start the server")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void a_refused_login_or_a_missing_database_says_what_to_correct_without_the_password() {
        Map<String, Object> wrong = on("login_check");
        wrong.put("password", "not-the-password");
        assertThatThrownBy(() -> open(wrong)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("refused the login").hasMessageNotContaining("not-the-password");
        Map<String, Object> missing = TestPostgres.connection("no_such_database");
        assertThatThrownBy(() -> open(missing)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("no database 'no_such_database'").hasMessageNotContaining(TestPostgres.PASSWORD);
    }

    @Test
    void language_sets_the_text_search_configuration_and_an_unknown_one_is_refused_with_the_known_ones() {
        Map<String, Object> english = on("language_english");
        try (MemoryProvider provider = open(english)) {
            provider.set("note", "the deployments were running", Scope.PROJECT);
            assertThat(provider.search(SearchRequest.keyword("deployment run"))).hasSize(1);
            assertThat(provider.search(SearchRequest.keyword("the"))).as("an English stop word").isEmpty();
        }
        Map<String, Object> simple = on("language_simple");
        simple.put("language", "simple");
        try (MemoryProvider provider = open(simple)) {
            provider.set("note", "the deployments were running", Scope.PROJECT);
            assertThat(provider.search(SearchRequest.keyword("the"))).hasSize(1);
            assertThat(provider.search(SearchRequest.keyword("deployment"))).as("no stemming").isEmpty();
        }
        // the English store reopened as 'simple' rebuilds its documents
        english.put("language", "simple");
        try (MemoryProvider provider = open(english)) {
            assertThat(provider.search(SearchRequest.keyword("the"))).hasSize(1);
        }
        Map<String, Object> unknown = on("language_unknown");
        unknown.put("language", "klingon");
        assertThatThrownBy(() -> open(unknown)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("klingon").hasMessageContaining("english");
    }

    @Test
    void tables_of_a_newer_forge_memory_are_refused_and_left_untouched() throws SQLException {
        try (MemoryProvider provider = open(on("newer_schema"))) {
            provider.set("kept", "v", Scope.PROJECT);
        }
        LocalPostgres.Server server = TestPostgres.server();
        try (Connection connection = DriverManager.getConnection(server.jdbcUrl(database()), server.user(), server.password());
             Statement statement = connection.createStatement()) {
            statement.execute("UPDATE newer_schema.schema_version SET version = 99");
        }
        assertThatThrownBy(() -> open(on("newer_schema"))).isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("newer forge-memory").hasMessageContaining("left untouched");
        try (Connection connection = DriverManager.getConnection(server.jdbcUrl(database()), server.user(), server.password());
             Statement statement = connection.createStatement()) {
            statement.execute("UPDATE newer_schema.schema_version SET version = 1");
        }
        try (MemoryProvider provider = open(on("newer_schema"))) {
            assertThat(provider.get("kept", Scope.PROJECT)).isPresent();
        }
    }
}
