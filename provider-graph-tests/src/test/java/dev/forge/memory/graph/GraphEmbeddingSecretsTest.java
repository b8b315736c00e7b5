package dev.forge.memory.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.conformance.EmbeddingSecretsContract;
import dev.forge.memory.conformance.EmbeddingService;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Session;

/**
 * The graph provider keeps the secrets of its model's settings out of Neo4j (the store's recorded fingerprint and every
 * node's model tag), its messages and its log: see the contract. What the store keeps is every property of every node
 * of the store on the shared test server. A store tagged by an earlier version with the token in clear keeps working
 * and loses the token.
 */
class GraphEmbeddingSecretsTest extends EmbeddingSecretsContract {

    @Override
    protected String providerName() {
        return GraphMemoryProvider.NAME;
    }

    @Override
    protected Map<String, Object> config(Path base, Map<String, Object> embedding) {
        Map<String, Object> config = TestNeo4j.connection();
        config.put("store", store(base));
        config.put("embedding", embedding);
        return config;
    }

    private static String store(Path base) {
        return UUID.nameUUIDFromBytes(base.toString().getBytes(StandardCharsets.UTF_8)).toString();
    }

    @Override
    protected String embeddingPath() {
        return "embedding";
    }

    private static Driver driver() {
        TestNeo4j.Server server = TestNeo4j.server();
        return GraphDatabase.driver(server.uri(), server.username().isEmpty() ? AuthTokens.none()
                : AuthTokens.basic(server.username(), server.password()));
    }

    @Override
    protected String storedText(Path base) throws IOException {
        StringBuilder text = new StringBuilder(super.storedText(base));
        try (Driver driver = driver(); Session session = driver.session()) {
            session.run("MATCH (n) WHERE n.store = $store RETURN labels(n) AS labels, properties(n) AS properties",
                    Map.of("store", store(base))).list().forEach(row -> text.append(row.get("labels")).append(' ')
                    .append(row.get("properties").asMap()).append('\n'));
        }
        return text.toString();
    }

    /** Tags the store and its entries as an earlier version did: the fingerprint with the URL and its token in clear. */
    private void recordEarlierFingerprint(String remoteModel) {
        String earlier = "openai:" + service.url(TOKEN).substring("http://".length()) + ":" + remoteModel + ":"
                + EmbeddingService.DIMENSION + ":l2";
        try (Driver driver = driver(); Session session = driver.session()) {
            session.run("MATCH (s:ForgeMemoryStore {store: $store}) SET s.fingerprint = $earlier",
                    Map.of("store", store(base), "earlier", earlier)).consume();
            session.run("MATCH (m:Memory) WHERE m.store = $store AND m.embeddingModel IS NOT NULL"
                    + " SET m.embeddingModel = $earlier", Map.of("store", store(base), "earlier", earlier)).consume();
        }
    }

    @Test
    void a_store_tagged_with_the_token_in_clear_opens_without_reindex_and_forgets_the_token() throws IOException {
        try (MemoryProvider provider = open(service.url(TOKEN), "embed-model", false)) {
            provider.set("cache", "The cache expires entries after ten minutes", Scope.PROJECT);
        }
        recordEarlierFingerprint("embed-model");
        assertThat(storedText(base)).as("the earlier form is stored").contains(TOKEN);

        try (MemoryProvider rotated = open(service.url(ROTATED), "embed-model", false)) {
            assertThat(rotated.search(SearchRequest.builder("The cache expires entries after ten minutes")
                    .mode(SearchMode.SEMANTIC).build())).first().satisfies(hit -> assertThat(hit.entry().key())
                    .isEqualTo("cache"));
            assertThat(rotated.doctor()).isEmpty();
        }
        assertThat(storedText(base)).doesNotContain(TOKEN).doesNotContain(ROTATED);

        recordEarlierFingerprint("embed-model");
        Throwable refused = catchThrowable(() -> open(service.url(ROTATED), "another-model", false).close());
        assertThat(refused).isInstanceOf(IndexModelMismatchException.class);
        assertThat(refused.getMessage()).contains("forge-memory reindex").doesNotContain(TOKEN).doesNotContain(ROTATED)
                .doesNotContain(TOKEN.substring(4, 18));
    }
}
