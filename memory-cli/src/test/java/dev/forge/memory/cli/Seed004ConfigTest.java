package dev.forge.memory.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every configuration block of seed 004 (files under {@code src/test/resources/seeds/004/}, verbatim; the README there
 * names each one's section), loaded as a config file and opened through the command line tool: each gives a working
 * store or one sentence saying what to do instead (exit 3).
 */
class Seed004ConfigTest {

    @TempDir
    Path root;

    CliHarness cli;

    @BeforeEach
    void setUp() {
        cli = new CliHarness(root);
    }

    private static String seed(String name) {
        try (InputStream in = Seed004ConfigTest.class.getResourceAsStream("/seeds/004/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing fixture seeds/004/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void storesAndReadsBack() {
        cli.ok("set", "decision:auth-strategy", "Using JWT with refresh tokens because...", "--tag", "decision");
        assertThat(cli.ok("get", "decision:auth-strategy").out()).isEqualTo("Using JWT with refresh tokens because...\n");
    }

    @Test
    void per_project_file_block_opens_a_file_store_under_its_base_path() {
        cli.projectConfig(seed("per-project.yaml"));
        storesAndReadsBack();
        assertThat(cli.project.resolve(".forge/memory")).isDirectory();
        assertThat(cli.ok("config", "--json").json().path("provider").asText()).isEqualTo("file");
    }

    @Test
    void file_provider_block_opens_a_store_writing_gzip_files() throws Exception {
        cli.projectConfig(seed("file-provider.yaml"));
        storesAndReadsBack();
        try (var files = Files.walk(cli.project.resolve(".forge/memory"))) {
            assertThat(files.map(Path::toString)).anyMatch(name -> name.endsWith(".json.gz"));
        }
    }

    @Test
    void graph_provider_block_names_the_missing_jar_when_the_graph_provider_is_not_installed() {
        cli.projectConfig(seed("graph-provider.yaml"));
        String err = cli.fails(ExitCodes.CONFIGURATION, "set", "k", "v").err();
        assertThat(err).contains("'graph'").contains(".forge/plugins").doesNotContain("secret");
    }

    @Test
    void vector_provider_block_reports_every_remote_service_key_at_once_with_what_to_use_instead() {
        cli.projectConfig(seed("vector-provider.yaml"));
        String err = cli.fails(ExitCodes.CONFIGURATION, "set", "k", "v").err();
        assertThat(err).contains("'memory.config.url'", "'memory.config.api_key'", "'memory.config.index'",
                "'memory.config.embedding_model'", "'memory.config.dimensions'");
        assertThat(err).contains("Lucene").contains("path")
                .contains("embedding: {model: openai, remote_model: text-embedding-3-small")
                .contains("dimension: 1536")
                .doesNotContain("secret");
    }

    @Test
    void relational_block_with_a_postgresql_url_opens_postgres_and_says_when_the_server_is_unreachable() {
        assumeTrue(closed(5432), "something listens on localhost:5432, so the seed's URL reaches a server");
        cli.projectConfig(seed("relational-provider.yaml"));
        String err = cli.fails(ExitCodes.BACKEND, "set", "k", "v").err();
        assertThat(err).contains("PostgreSQL at localhost:5432 is not reachable").contains("Start the server")
                .doesNotContain(":pass@");
    }

    @Test
    void hybrid_block_takes_the_file_cache_and_stops_at_the_postgresql_storage_url_with_an_ellipsis() {
        cli.projectConfig(seed("hybrid-provider.yaml"));
        String err = cli.fails(ExitCodes.CONFIGURATION, "set", "k", "v").err();
        assertThat(err).contains("postgresql://user:password@host:5432/database").contains("storage");
    }

    @Test
    void global_default_block_in_the_user_file_opens_postgres_on_port_5432() {
        assumeTrue(closed(5432), "something listens on localhost:5432");
        cli.userConfig(seed("global-default.yaml"));
        String err = cli.fails(ExitCodes.BACKEND, "set", "k", "v").err();
        assertThat(err).contains("PostgreSQL at localhost:5432 is not reachable");
    }

    private static boolean closed(int port) {
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new java.net.InetSocketAddress("localhost", port), 2000);
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Test
    void hybrid_block_with_an_embedded_relational_storage_and_the_seeds_cache_works() {
        cli.projectConfig(seed("hybrid-provider.yaml").replace("url: postgresql://...\n", "url: sqlite:.forge/seed.db\n")
                .replace("    search:\n      provider: vector\n      url: https://pinecone.io/...\n", "")
                .replace("    relationships:\n      provider: graph\n      url: bolt://neo4j:7687\n", ""));
        storesAndReadsBack();
        assertThat(cli.project.resolve(".forge/seed.db")).isRegularFile();
    }

    @Test
    void relational_opens_the_embedded_sqlite_store_without_url_or_with_a_path_or_sqlite_url() {
        String[][] cases = {
            {"", ".forge/memory.db"},
            {"    url: data/relational.db\n", "data/relational.db"},
            {"    url: sqlite:data/plain.db\n", "data/plain.db"},
            {"    url: sqlite:///data/alchemy.db\n", "data/alchemy.db"},
            {"    url: jdbc:sqlite:data/jdbc.db\n", "data/jdbc.db"},
        };
        for (String[] c : cases) {
            cli.projectConfig("memory:\n  provider: relational\n" + (c[0].isEmpty() ? "" : "  config:\n" + c[0]));
            storesAndReadsBack();
            assertThat(cli.project.resolve(c[1])).as(c[0]).isRegularFile();
        }
    }

    @Test
    void relational_over_sqlite_refuses_server_only_keys_all_at_once() {
        cli.projectConfig("memory:\n  provider: relational\n  config:\n    url: .forge/r.db\n    pool_size: 10\n    ssl: require\n");
        String err = cli.fails(ExitCodes.CONFIGURATION, "set", "k", "v").err();
        assertThat(err).contains("'memory.config.pool_size'").contains("'memory.config.ssl'").contains("SQLite");
    }

    @Test
    void relational_refuses_other_databases_by_name() {
        cli.projectConfig("memory:\n  provider: relational\n  config:\n    url: mysql://localhost/forge\n");
        assertThat(cli.fails(ExitCodes.CONFIGURATION, "set", "k", "v").err()).contains("mysql").contains("sqlite:");
    }

    @Test
    void runtime_override_init_memory_provider_writes_that_providers_config() throws IOException {
        String command = seed("runtime-override.sh").lines().findFirst().orElseThrow();
        assertThat(command).isEqualTo("forge init --memory-provider vector");
        String[] args = command.substring("forge ".length()).split(" ");
        assertThat(cli.ok(args).out()).contains("'vector'");
        assertThat(Files.readString(cli.project.resolve(".forge/config.yaml"))).contains("  provider: vector\n");
        assertThat(cli.ok("config", "--json").json().path("provider").asText()).isEqualTo("vector");
    }

    @Test
    void init_with_an_unknown_memory_provider_lists_the_known_ones_and_writes_nothing() {
        String err = cli.fails(ExitCodes.CONFIGURATION, "init", "--memory-provider", "pinecone").err();
        assertThat(err).contains("'pinecone'").contains("vector").contains("sqlite");
        assertThat(cli.project.resolve(".forge/config.yaml")).doesNotExist();
    }

    @Test
    void init_refuses_two_different_provider_names() {
        cli.fails(ExitCodes.USAGE, "init", "--memory-provider", "vector", "--provider", "sqlite");
        assertThat(cli.project.resolve(".forge/config.yaml")).doesNotExist();
    }

    @Test
    void init_relational_writes_a_config_that_opens() {
        cli.ok("init", "--provider", "relational");
        storesAndReadsBack();
    }
}
