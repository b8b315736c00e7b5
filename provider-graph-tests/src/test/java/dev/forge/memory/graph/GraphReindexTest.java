package dev.forge.memory.graph;

import dev.forge.memory.support.SearchText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.Transaction;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.forge.memory.Capability;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Query;
import dev.forge.memory.Reindexing;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.EmbeddingModels;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import dev.forge.memory.graph.internal.GraphStore;
import dev.forge.memory.support.SemanticScorer;

/** The model fingerprint recorded with a store, the guard on open, and rebuilding the vectors with another model. */
class GraphReindexTest {

    private static final Map<String, Object> MODEL_A = Map.of("model", "hashing", "dimension", 384);
    private static final Map<String, Object> MODEL_B = Map.of("model", "hashing", "dimension", 256);
    private static final String FINGERPRINT_A = "hashing/1/fnv1a64/words+trigrams/sublinear-tf/l2/dim=384";
    private static final String FINGERPRINT_B = "hashing/1/fnv1a64/words+trigrams/sublinear-tf/l2/dim=256";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path directory;

    private final String store = "reindex-test-" + UUID.randomUUID();
    private final List<MemoryProvider> opened = new ArrayList<>();
    /** A driver of the test's own, to read what the providers stored; opened on first use. */
    private Driver driver;

    @AfterEach
    void closeAll() {
        opened.forEach(MemoryProvider::close);
        if (driver != null) {
            driver.close();
        }
    }

    private Driver driver() {
        if (driver == null) {
            TestNeo4j.Server server = TestNeo4j.server();
            driver = GraphDatabase.driver(server.uri(), server.username().isEmpty() ? AuthTokens.none()
                    : AuthTokens.basic(server.username(), server.password()));
        }
        return driver;
    }

    /** The model a provider opens for {@code embedding}, to compute the vectors it must have stored. */
    private static EmbeddingModel model(Map<String, Object> embedding) {
        return EmbeddingModels.load().open(ProviderConfig.of(embedding, "test.yaml", "memory.config.embedding"));
    }

    /**
     * Checks exactly what a reindex promises for each PROJECT key of {@code keys}: its live node is tagged with the
     * model's fingerprint and holds the model's vector of the key's current entry (as the provider reads it), not the
     * vector of another model or of a value the key had before (what a lost update of the reindex would leave).
     */
    private void assertVectorsOfCurrentEntries(MemoryProvider provider, Map<String, Object> embedding, List<String> keys) {
        List<MemoryEntry> entries = keys.stream().map(k -> provider.get(k, Scope.PROJECT).orElseThrow()).toList();
        Map<String, Record> nodes = new HashMap<>();
        try (EmbeddingModel model = model(embedding); Session session = driver().session()) {
            List<float[]> expected = model.embed(entries.stream().map(SearchText.DEFAULT::text).toList());
            session.run("MATCH (m:Memory) WHERE m.store = $store AND m.project = 'p' AND m.session = '' AND m.scope = $scope"
                    + " AND m.key IN $keys AND m.version > 0 RETURN m.key AS key, m.embeddingModel AS model, m[$property] AS vector",
                    Map.of("store", store, "scope", Scope.PROJECT.id(), "keys", keys, "property", "embedding_" + model.dimension()))
                    .forEachRemaining(r -> nodes.put(r.get("key").asString(), r));
            List<String> wrong = new ArrayList<>();
            for (int i = 0; i < entries.size(); i++) {
                String key = entries.get(i).key();
                Record node = nodes.get(key);
                if (node == null) {
                    wrong.add(key + ": no live node");
                    continue;
                }
                String fingerprint = node.get("model").asString("(none)");
                float[] vector = GraphStore.vector(node.get("vector"));
                if (!fingerprint.equals(model.fingerprint()) || !Arrays.equals(vector, expected.get(i))) {
                    wrong.add(key + ": embeddingModel " + fingerprint + ", " + (vector == null ? "no vector"
                            : "cosine " + SemanticScorer.dot(vector, expected.get(i)) + " to its current entry's vector"
                            + olderVersionWithVector(provider, model, entries.get(i), vector)));
                }
            }
            assertThat(wrong).as("keys whose vector is not %s's of their current entry", model.fingerprint()).isEmpty();
        }
    }

    /** For a failure message: which earlier version of {@code entry}'s key {@code vector} is the model's vector of. */
    private static String olderVersionWithVector(MemoryProvider provider, EmbeddingModel model, MemoryEntry entry, float[] vector) {
        List<MemoryEntry> versions = provider.requireHistory().versions(entry.key(), entry.scope());
        for (MemoryEntry version : versions) {
            if (version.version() < entry.version() && Arrays.equals(vector, model.embed(SearchText.DEFAULT.text(version)))) {
                return "; it is the vector of version " + version.version() + " (a lost update)";
            }
        }
        return "";
    }

    private MemoryProvider open(Map<String, Object> embedding, boolean forReindex) {
        return open("p", embedding, forReindex);
    }

    private MemoryProvider open(String project, Map<String, Object> embedding, boolean forReindex) {
        Map<String, Object> config = TestNeo4j.connection();
        config.put("store", store);
        if (embedding != null) {
            config.put("embedding", embedding);
        }
        ProviderContext context = ProviderContext.builder().projectId(project).sessionId("s").baseDirectory(directory)
                .forgeHome(directory.resolve("forge-home")).registry(ProviderRegistry.of()).openForReindex(forReindex)
                .config(ProviderConfig.of(config, "test.yaml", "memory.config")).build();
        MemoryProvider provider = new GraphMemoryProviderFactory().open(context);
        opened.add(provider);
        return provider;
    }

    private static List<String> semantic(MemoryProvider provider, String text) {
        return provider.search(SearchRequest.builder(text).mode(SearchMode.SEMANTIC).build()).stream()
                .map(h -> h.entry().key()).toList();
    }

    private static void seed(MemoryProvider provider) {
        provider.set("deploy", "Deploy the service to production only on Tuesdays", Scope.PROJECT);
        provider.set("cache", "The cache expires entries after ten minutes", Scope.PROJECT);
        provider.set("style", "The user prefers short answers without emojis", Scope.GLOBAL);
    }

    @Test
    void a_model_of_another_fingerprint_is_refused_until_the_store_is_reindexed_with_it() {
        MemoryProvider a = open(MODEL_A, false);
        seed(a);
        assertThat(semantic(a, "cache expiry minutes")).first().isEqualTo("cache");
        List<MemoryEntry> before = a.query(Query.of("*"));
        a.close();

        assertThatThrownBy(() -> open(MODEL_B, false))
                .isInstanceOfSatisfying(IndexModelMismatchException.class, e -> {
                    assertThat(e.indexFingerprint()).isEqualTo(FINGERPRINT_A);
                    assertThat(e.configuredFingerprint()).isEqualTo(FINGERPRINT_B);
                })
                .hasMessageContaining(FINGERPRINT_A).hasMessageContaining(FINGERPRINT_B)
                .hasMessageContaining("forge-memory reindex");

        MemoryProvider b = open(MODEL_B, true);
        assertThat(b.capabilities()).contains(Capability.REINDEX, Capability.SEMANTIC_SEARCH);
        // the old vectors cannot answer a query of the new model: refused until the rebuild, keyword search still works
        assertThatThrownBy(() -> semantic(b, "cache expiry minutes")).isInstanceOf(IndexModelMismatchException.class);
        assertThat(b.search(SearchRequest.builder("cache").build())).extracting(h -> h.entry().key()).containsExactly("cache");

        List<long[]> reports = new ArrayList<>();
        Reindexing.ReindexResult result = b.requireReindexing().reindex((done, total) -> reports.add(new long[] {done, total}));

        assertThat(result.entries()).isEqualTo(3);
        assertThat(result.fingerprint()).isEqualTo(FINGERPRINT_B);
        assertThat(reports.get(reports.size() - 1)).containsExactly(3, 3);
        assertThat(semantic(b, "cache expiry minutes")).first().isEqualTo("cache");
        assertThat(b.query(Query.of("*"))).containsExactlyInAnyOrderElementsOf(before);
        b.close();

        MemoryProvider reopened = open(MODEL_B, false);
        assertThat(semantic(reopened, "production deployment Tuesday")).first().isEqualTo("deploy");
        assertThat(reopened.search(SearchRequest.builder("short answers").mode(SearchMode.HYBRID).build()))
                .extracting(h -> h.entry().key()).first().isEqualTo("style");
        reopened.close();

        assertThatThrownBy(() -> open(MODEL_A, false))
                .isInstanceOfSatisfying(IndexModelMismatchException.class, e -> {
                    assertThat(e.indexFingerprint()).isEqualTo(FINGERPRINT_B);
                    assertThat(e.configuredFingerprint()).isEqualTo(FINGERPRINT_A);
                });
    }

    @Test
    void writes_while_opened_for_reindex_keep_their_vectors_of_the_new_model() {
        seed(open(MODEL_A, false));
        MemoryProvider b = open(MODEL_B, true);
        b.set("tests", "Run the integration tests before every merge", Scope.PROJECT);
        try (MemoryTransaction tx = b.requireTransactions().begin()) {
            tx.set("lint", "Lint the code before pushing", Scope.PROJECT);
            tx.set("lint", "Lint and format the code before pushing", Scope.PROJECT);
            tx.commit();
        }
        assertThat(b.requireReindexing().reindex().entries()).isEqualTo(5);
        assertThat(semantic(b, "integration tests merge")).first().isEqualTo("tests");
        assertThat(semantic(b, "format code pushing")).first().isEqualTo("lint");
        assertThat(b.get("lint", Scope.PROJECT).orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void a_reindex_that_stops_part_way_leaves_the_old_model_recorded() {
        MemoryProvider a = open(MODEL_A, false);
        try (MemoryTransaction tx = a.requireTransactions().begin()) {
            for (int i = 0; i < 520; i++) {
                tx.set("note-" + i, "note number " + i + " about topic " + (i % 7), Scope.PROJECT);
            }
            tx.set("cache", "The cache expires entries after ten minutes", Scope.PROJECT);
            tx.commit();
        }
        a.close();

        MemoryProvider b = open(MODEL_B, true);
        int[] calls = {0};
        assertThatThrownBy(() -> b.requireReindexing().reindex((done, total) -> {
            if (++calls[0] == 2) { // after the first batch: as if the process died here
                throw new IllegalStateException("stopped after " + done + " of " + total);
            }
        })).isInstanceOf(IllegalStateException.class).hasMessageContaining("of 521");
        b.close();

        assertThatThrownBy(() -> open(MODEL_B, false)).isInstanceOfSatisfying(IndexModelMismatchException.class,
                e -> assertThat(e.indexFingerprint()).isEqualTo(FINGERPRINT_A));
        // the old model still opens the store: what was rebuilt already gets its old vectors back
        MemoryProvider again = open(MODEL_A, false);
        assertThat(semantic(again, "cache expiry minutes")).first().isEqualTo("cache");
        List<String> notes = again.search(SearchRequest.builder("note number topic").mode(SearchMode.SEMANTIC).limit(1000)
                .build()).stream().map(h -> h.entry().key()).filter(k -> k.startsWith("note-")).toList();
        assertThat(notes).hasSize(520);
    }

    @Test
    void entries_written_without_a_model_are_embedded_when_a_model_opens_the_store() {
        seed(open(MODEL_A, false));
        MemoryProvider plain = open(null, false);
        assertThat(plain.capabilities()).doesNotContain(Capability.REINDEX);
        assertThat(plain.reindexing()).isEmpty();
        plain.set("tests", "Run the integration tests before every merge", Scope.PROJECT);
        plain.set("cache", "The cache keeps entries for an hour now", Scope.PROJECT);
        plain.close();

        MemoryProvider a = open(MODEL_A, false);
        assertThat(semantic(a, "integration tests merge")).first().isEqualTo("tests");
        assertThat(semantic(a, "cache keeps entries hour")).first().isEqualTo("cache");
        assertThat(semantic(a, "cache keeps entries hour")).containsOnlyOnce("cache");
    }

    @Test
    void reindex_with_the_same_model_rebuilds_every_project_and_session() {
        MemoryProvider a = open(MODEL_A, false);
        seed(a);
        a.set("here", "a note of this session", Scope.SESSION);
        MemoryProvider other = open("q", MODEL_A, false);
        other.set("there", "a note of another project", Scope.PROJECT);
        Reindexing.ReindexResult result = a.requireReindexing().reindex();
        assertThat(result.entries()).isEqualTo(5);
        assertThat(result.fingerprint()).isEqualTo(FINGERPRINT_A);
        assertThat(semantic(other, "note of another project")).first().isEqualTo("there");
    }

    @Test
    void writes_during_a_reindex_are_kept_and_searchable() throws Exception {
        MemoryProvider a = open(MODEL_A, false);
        try (MemoryTransaction tx = a.requireTransactions().begin()) {
            for (int i = 0; i < 600; i++) {
                tx.set("old-" + i, "an older note number " + i, Scope.PROJECT);
            }
            tx.commit();
        }
        a.close();
        MemoryProvider b = open(MODEL_B, true);
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            CountDownLatch started = new CountDownLatch(1);
            Future<List<String>> writes = writer.submit(() -> {
                started.await();
                List<String> keys = new ArrayList<>();
                for (int i = 0; i < 40; i++) {
                    String key = i % 2 == 0 ? "new-" + i : "old-" + i;
                    b.set(key, "a fresh note about gardening tomatoes " + i, Scope.PROJECT);
                    keys.add(key);
                }
                return keys;
            });
            Reindexing.ReindexResult result = b.requireReindexing().reindex((done, total) -> started.countDown());
            List<String> written = writes.get(10, TimeUnit.MINUTES);
            assertThat(result.fingerprint()).isEqualTo(FINGERPRINT_B);
            for (String key : written) {
                assertThat(b.get(key, Scope.PROJECT)).get().extracting(MemoryEntry::value).asString().contains("tomatoes");
            }
            // the exact check: a write racing a batch must not end up with the vector of the value it replaced
            assertVectorsOfCurrentEntries(b, MODEL_B, written);
            // The vector index is an approximate (HNSW) nearest-neighbour search over every store of the shared server,
            // many holding near-duplicates of these notes: one search may miss a key whose vector is right (checked
            // exactly above), so it may miss two of the forty, but never finds anything else.
            List<String> found = b.search(SearchRequest.builder("fresh note gardening tomatoes").mode(SearchMode.SEMANTIC)
                    .limit(100).threshold(0.5).build()).stream().map(h -> h.entry().key()).toList();
            assertThat(found).doesNotHaveDuplicates().isSubsetOf(written).hasSizeGreaterThanOrEqualTo(written.size() - 2);
        } finally {
            writer.shutdownNow();
        }
        b.close();
        assertThat(open(MODEL_B, false).query(Query.of("*"))).hasSize(620);
    }

    /**
     * The race of the test above made certain: a writer of the new model holds the key's lock, as every write does from
     * its start, while the reindex reads the key's old entry and stores its batch; the writer commits only once the
     * reindex waits for that lock. The provider's own writes hold the lock a few milliseconds, too short to hit on
     * purpose, so a transaction of this test plays the writer, storing the entry the way the provider does (value,
     * snapshot, revision, vector of the new model and its fingerprint).
     */
    @Test
    void a_write_committed_while_a_reindex_batch_waits_for_its_lock_keeps_the_vector_of_its_value() throws Exception {
        seed(open(MODEL_A, false));
        MemoryProvider b = open(MODEL_B, true);
        String value = "The cache keeps entries for an hour now";
        ExecutorService reindexer = Executors.newSingleThreadExecutor();
        try (Session session = driver().session(); Transaction write = session.beginTransaction()) {
            writeHoldingTheLock(write, b.get("cache", Scope.PROJECT).orElseThrow(), value);
            Future<Reindexing.ReindexResult> reindex = reindexer.submit(() -> b.requireReindexing().reindex());
            assertThat(awaitBlocked(reindex, "embedding_256")).as("the reindex waits for the writer's lock").isTrue();
            write.commit();
            assertThat(reindex.get(10, TimeUnit.MINUTES).fingerprint()).isEqualTo(FINGERPRINT_B);
        } finally {
            reindexer.shutdownNow();
        }
        assertThat(b.get("cache", Scope.PROJECT)).get().extracting(MemoryEntry::value).isEqualTo(value);
        assertVectorsOfCurrentEntries(b, MODEL_B, List.of("cache", "deploy"));
        assertThat(semantic(b, "cache keeps entries hour")).first().isEqualTo("cache");
    }

    /**
     * The same race with a restore as the writer: the restore holds the key's lock while it waits for a lock this test
     * holds on the key's old version node, the reindex batch reads the replaced entry meanwhile and waits for the key's
     * lock; the restore commits first. The batch must then find the restore's new revision and leave its vector, which
     * must be model B's of the restored value.
     */
    @Test
    void a_restore_committed_while_a_reindex_batch_waits_for_its_lock_keeps_the_vector_of_the_restored_value() throws Exception {
        MemoryProvider a = open(MODEL_A, false);
        seed(a);
        a.set("cache", "The cache expires entries after five minutes", Scope.PROJECT);
        MemoryProvider b = open(MODEL_B, true);
        Instant then = Instant.parse("2020-01-02T03:04:05.006Z");
        MemoryEntry restored = new MemoryEntry("cache", "Penguins keep the cache for an hour now", Scope.PROJECT,
                List.of("imported"), Map.of("source", "export"), then, then, 7);
        ExecutorService workers = Executors.newFixedThreadPool(2);
        try (Session session = driver().session(); Transaction holder = session.beginTransaction()) {
            holder.run("MATCH (v:MemoryVersion {store: $store, key: 'cache'}) SET v.lock = true", Map.of("store", store)).consume();
            Future<MemoryEntry> restore = workers.submit(() -> b.requireRestoring().restore(List.of(restored)));
            assertThat(awaitBlocked(restore, "DETACH DELETE v")).as("the restore waits for the version node's lock").isTrue();
            Future<Reindexing.ReindexResult> reindex = workers.submit(() -> b.requireReindexing().reindex());
            assertThat(awaitBlocked(reindex, "embedding_256")).as("the reindex waits for the restore's lock").isTrue();
            holder.rollback();
            assertThat(restore.get(10, TimeUnit.MINUTES)).isEqualTo(restored);
            assertThat(reindex.get(10, TimeUnit.MINUTES).fingerprint()).isEqualTo(FINGERPRINT_B);
        } finally {
            workers.shutdownNow();
        }
        assertThat(b.get("cache", Scope.PROJECT)).contains(restored);
        assertThat(b.requireHistory().versions("cache", Scope.PROJECT)).containsExactly(restored);
        assertVectorsOfCurrentEntries(b, MODEL_B, List.of("cache", "deploy"));
        assertThat(semantic(b, "penguins keep the cache")).first().isEqualTo("cache");
    }

    /** In {@code tx}: locks the node of {@code entry} and stores {@code value} over it as a writer of model B does. */
    private void writeHoldingTheLock(Transaction tx, MemoryEntry entry, String value) throws Exception {
        Map<String, Object> key = Map.of("store", store, "scope", Scope.PROJECT.id(), "key", entry.key());
        String match = "MATCH (m:Memory {store: $store, project: 'p', session: '', scope: $scope, key: $key})";
        Map<String, Object> snapshot = JSON.readValue(tx.run(match + " SET m.lock = true REMOVE m.lock RETURN m.snapshot AS s",
                key).single().get("s").asString(), new TypeReference<Map<String, Object>>() { });
        String revision = UUID.randomUUID().toString();
        snapshot.put("rev", revision);
        snapshot.put("value", value);
        MemoryEntry written = new MemoryEntry(entry.key(), value, entry.scope(), entry.tags(), entry.metadata(),
                entry.createdAt(), entry.updatedAt(), entry.version());
        List<Double> vector = new ArrayList<>();
        try (EmbeddingModel model = model(MODEL_B)) {
            for (float component : model.embed(SearchText.DEFAULT.text(written))) {
                vector.add((double) component);
            }
        }
        Map<String, Object> params = new HashMap<>(key);
        params.put("value", value);
        params.put("rev", revision);
        params.put("snapshot", JSON.writeValueAsString(snapshot));
        params.put("fingerprint", FINGERPRINT_B);
        params.put("vector", vector);
        tx.run(match + " SET m.value = $value, m.rev = $rev, m.snapshot = $snapshot, m.embeddingModel = $fingerprint,"
                + " m.embedding_256 = $vector REMOVE m.embedding_384", params).consume();
    }

    /**
     * Waits until a transaction running a query that contains {@code query} (for a reindex batch of model B,
     * {@code embedding_256}) is blocked by a lock; false if {@code task} ends first.
     */
    private boolean awaitBlocked(Future<?> task, String query) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (Session watcher = driver().session()) {
            while (!task.isDone() && System.nanoTime() < deadline) {
                if (watcher.run("SHOW TRANSACTIONS YIELD status, currentQuery WHERE status STARTS WITH 'Blocked'"
                        + " AND currentQuery CONTAINS $query RETURN count(*) AS n", Map.of("query", query))
                        .single().get("n").asLong() > 0) {
                    return true;
                }
                Thread.sleep(10);
            }
        }
        return false;
    }
}
