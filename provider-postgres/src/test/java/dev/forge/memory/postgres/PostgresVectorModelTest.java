package dev.forge.memory.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.forge.memory.Capability;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Hit;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Reindexing;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.postgres.testserver.LocalPostgres.Server;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedding model of a postgres store: its fingerprint recorded, another model refused until a reindex rebuilds
 * the vectors, entries written without a model embedded when a provider with one opens; and the clear refusals of an
 * {@code embedding} block on a server without pgvector, or by a login that may not create the extension.
 */
class PostgresVectorModelTest {

    private static final String CACHE = "The cache expires entries after ten minutes";
    private static final String DEPLOY = "Deploy the service to production on Fridays never";

    @TempDir
    Path directory;

    private static String database;
    private final String schema = "m_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private final java.util.List<MemoryProvider> opened = new java.util.ArrayList<>();

    private static synchronized String database() {
        if (database == null) {
            database = TestPostgres.newDatabase();
        }
        return database;
    }

    @AfterEach
    void closeAll() {
        opened.forEach(MemoryProvider::close);
    }

    private MemoryProvider open(Map<String, Object> embedding, boolean forReindex) {
        Map<String, Object> settings = TestPostgres.connection(database());
        settings.put("schema", schema);
        if (embedding != null) {
            settings.put("embedding", embedding);
        }
        return openWith(settings, forReindex);
    }

    private MemoryProvider openWith(Map<String, Object> settings, boolean forReindex) {
        ProviderContext context = ProviderContext.builder().config(ProviderConfig.of(settings)).projectId("p")
                .sessionId("s").baseDirectory(directory).forgeHome(directory.resolve("home")).openForReindex(forReindex)
                .build();
        MemoryProvider provider = new PostgresMemoryProviderFactory().open(context);
        opened.add(provider);
        return provider;
    }

    private static Map<String, Object> hashing(int dimension) {
        return Map.of("model", "hashing", "dimension", dimension);
    }

    private static List<String> semantic(MemoryProvider provider, String text) {
        return provider.search(SearchRequest.builder(text).mode(SearchMode.SEMANTIC).build()).stream()
                .map(Hit::entry).map(MemoryEntry::key).toList();
    }

    @Test
    void another_model_is_refused_until_a_reindex_rebuilds_every_vector() {
        TestPostgres.assumePgvector();
        MemoryProvider first = open(hashing(64), false);
        first.set("cache", CACHE, Scope.PROJECT);
        first.set("deploy", DEPLOY, Scope.GLOBAL);
        MemoryEntry cache = first.set("cache", CACHE + " exactly", Scope.PROJECT);
        assertThat(semantic(first, CACHE)).first().isEqualTo("cache");
        first.close();

        assertThatThrownBy(() -> open(hashing(128), false)).isInstanceOf(IndexModelMismatchException.class)
                .hasMessageContaining("forge-memory reindex").hasMessageContaining("64").hasMessageContaining("128");

        MemoryProvider rebuilding = open(hashing(128), true);
        assertThatThrownBy(() -> semantic(rebuilding, CACHE)).isInstanceOf(IndexModelMismatchException.class);
        List<long[]> reports = new java.util.ArrayList<>();
        Reindexing.ReindexResult result = rebuilding.requireReindexing().reindex((done, total) -> reports.add(new long[] {done, total}));
        assertThat(result.entries()).isEqualTo(2);
        assertThat(reports.get(reports.size() - 1)).containsExactly(2, 2);
        assertThat(semantic(rebuilding, CACHE)).first().isEqualTo("cache");
        rebuilding.close();

        MemoryProvider reopened = open(hashing(128), false);
        assertThat(reopened.get("cache", Scope.PROJECT)).contains(cache);
        assertThat(semantic(reopened, DEPLOY)).first().isEqualTo("deploy");
        reopened.close();
        assertThatThrownBy(() -> open(hashing(64), false)).isInstanceOf(IndexModelMismatchException.class);
    }

    @Test
    void entries_written_without_a_model_get_their_vectors_when_a_provider_with_one_opens() {
        TestPostgres.assumePgvector();
        MemoryProvider plain = open((Map<String, Object>) null, false);
        assertThat(plain.capabilities()).doesNotContain(Capability.SEMANTIC_SEARCH, Capability.REINDEX);
        plain.set("cache", CACHE, Scope.PROJECT);
        MemoryProvider withModel = open(hashing(64), false);
        assertThat(withModel.capabilities()).contains(Capability.SEMANTIC_SEARCH, Capability.REINDEX);
        assertThat(semantic(withModel, CACHE)).containsExactly("cache");

        // an overwrite without the model leaves no vector of the old text behind
        plain.set("cache", DEPLOY, Scope.PROJECT);
        assertThat(semantic(withModel, CACHE)).isEmpty();
        assertThat(semantic(open(hashing(64), false), DEPLOY)).containsExactly("cache");
    }

    @Test
    void an_embedding_block_on_a_server_without_pgvector_is_refused_saying_what_to_do() {
        assumeFalse(TestPostgres.hasPgvector(), "the test server has pgvector; this case needs one without it");
        assertThatThrownBy(() -> open(hashing(64), false)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("does not have the pgvector extension")
                .hasMessageContaining("leave out 'embedding'")
                .satisfies(e -> assertThat(((ConfigurationException) e).field()).contains("config.embedding"));
        MemoryProvider plain = open((Map<String, Object>) null, false);
        assertThat(plain.capabilities()).doesNotContain(Capability.SEMANTIC_SEARCH);
    }

    @Test
    void a_login_that_may_not_create_the_extension_is_told_who_can() throws Exception {
        TestPostgres.assumePgvector();
        Server server = TestPostgres.server();
        String fresh = TestPostgres.newDatabase();
        String role = "forge_plain_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        try (Connection connection = DriverManager.getConnection(server.jdbcUrl(fresh), server.user(), server.password());
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE ROLE " + role + " LOGIN PASSWORD 'plain-secret'");
            statement.execute("GRANT CREATE ON DATABASE " + fresh + " TO " + role);
        }
        Map<String, Object> settings = new LinkedHashMap<>(TestPostgres.connection(fresh));
        settings.put("username", role);
        settings.put("password", "plain-secret");
        settings.put("embedding", hashing(64));
        assertThatThrownBy(() -> openWith(settings, false)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(role).hasMessageContaining("superuser").hasMessageContaining("CREATE EXTENSION vector")
                .hasMessageNotContaining("plain-secret");

        try (Connection connection = DriverManager.getConnection(server.jdbcUrl(fresh), server.user(), server.password());
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE EXTENSION vector");
        }
        MemoryProvider provider = openWith(settings, false);
        provider.set("cache", CACHE, Scope.PROJECT);
        assertThat(semantic(provider, CACHE)).containsExactly("cache");
    }
}
