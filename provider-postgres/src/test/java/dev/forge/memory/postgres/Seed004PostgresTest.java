package dev.forge.memory.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.config.Memories;
import dev.forge.memory.postgres.testserver.LocalPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 004's configuration blocks that name PostgreSQL (fixtures under {@code src/test/resources/seeds/004/}, verbatim),
 * opened through {@link Memories} as a user's {@code .forge/config.yaml}: {@code provider: relational} with a
 * {@code postgresql://} URL opens the postgres provider, and where the block cannot work as written the user gets one
 * sentence saying what to do instead.
 */
class Seed004PostgresTest {

    @TempDir
    Path project;

    private static String seed(String name) {
        try (InputStream in = Seed004PostgresTest.class.getResourceAsStream("/seeds/004/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("missing fixture seeds/004/" + name, e);
        }
    }

    private MemoryProvider open(String config) throws IOException {
        Files.createDirectories(project.resolve(".forge"));
        Files.writeString(project.resolve(".forge/config.yaml"), config);
        return Memories.builder().projectDirectory(project).environment(Map.of()).userHome(project.resolve("home"))
                .plugins(false).open();
    }

    /** The seed's block pointed at the test server: its user, password, host, port and a database of this test. */
    private static String onTestServer(String block) {
        LocalPostgres.Server server = TestPostgres.server();
        String database = TestPostgres.newDatabase();
        return block.replace("user:pass@localhost:5432/forge", server.user() + ":" + server.password() + "@"
                + server.host() + ":" + server.port() + "/" + database);
    }

    @Test
    void relational_block_opens_the_postgres_provider_with_its_pool_size_once_ssl_fits_the_server() throws IOException {
        String block = onTestServer(seed("relational-provider.yaml"));
        // The test server has no certificate: 'ssl: require' as the seed writes it is refused with what to change.
        assertThatThrownBy(() -> open(block).close()).isInstanceOfSatisfying(ConfigurationException.class, e ->
                assertThat(e).hasMessageContaining("does not accept SSL").hasMessageContaining("ssl: prefer")
                        .hasMessageNotContaining(TestPostgres.PASSWORD));
        try (MemoryProvider provider = open(block.replace("ssl: require", "ssl: prefer"))) {
            assertThat(provider).isInstanceOf(PostgresMemoryProvider.class);
            assertThat(((PostgresMemoryProvider) provider).config().poolSize()).isEqualTo(10);
            assertThat(provider.toString()).doesNotContain(TestPostgres.PASSWORD);
            assertThat(((PostgresMemoryProvider) provider).config().toString()).doesNotContain(TestPostgres.PASSWORD);
            // the seed's transaction example: both writes or neither
            try (var txn = provider.requireTransactions().begin()) {
                txn.set("counter", "1", Scope.PROJECT);
                txn.set("status", "active", Scope.PROJECT);
                txn.commit();
            }
            assertThat(provider.get("counter", Scope.PROJECT).orElseThrow().value()).isEqualTo("1");
            assertThat(provider.get("status", Scope.PROJECT).orElseThrow().value()).isEqualTo("active");
        }
    }

    @Test
    void relational_block_as_written_against_a_closed_port_says_the_server_is_unreachable_without_the_password()
            throws IOException {
        assumeTrue(closed("localhost", 5432), "something listens on localhost:5432, so the seed's URL reaches a server");
        assertThatThrownBy(() -> open(seed("relational-provider.yaml")).close())
                .isInstanceOfSatisfying(BackendUnavailableException.class, e -> assertThat(e)
                        .hasMessageContaining("localhost:5432").hasMessageContaining("not reachable")
                        .hasMessageContaining("Start the server").hasMessageNotContaining(":pass@"));
    }

    @Test
    void global_default_storage_url_without_port_means_5432() throws IOException {
        assumeTrue(closed("localhost", 5432), "something listens on localhost:5432");
        String url = storageUrl(seed("global-default.yaml"));
        assertThat(url).isEqualTo("postgresql://localhost/forge");
        assertThatThrownBy(() -> open("memory:\n  provider: relational\n  config:\n    url: " + url + "\n").close())
                .isInstanceOf(BackendUnavailableException.class).hasMessageContaining("localhost:5432");
    }

    @Test
    void hybrid_storage_url_with_an_ellipsis_is_refused_with_the_form_to_write() throws IOException {
        String url = storageUrl(seed("hybrid-provider.yaml"));
        assertThat(url).isEqualTo("postgresql://...");
        assertThatThrownBy(() -> open("memory:\n  provider: relational\n  config:\n    url: " + url + "\n").close())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("postgresql://user:password@host:5432/database");
    }

    private static String storageUrl(String block) {
        Matcher m = Pattern.compile("storage:\\n\\s+provider: relational\\n\\s+url: (\\S+)").matcher(block);
        assertThat(m.find()).as("a storage block in %s", block).isTrue();
        return m.group(1);
    }

    private static boolean closed(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 2000);
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
