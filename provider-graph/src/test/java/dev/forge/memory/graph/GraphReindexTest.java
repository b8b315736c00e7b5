package dev.forge.memory.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
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

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Query;
import dev.forge.memory.Reindexing;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;

/** The model fingerprint recorded with a store, the guard on open, and rebuilding the vectors with another model. */
class GraphReindexTest {

    private static final Map<String, Object> MODEL_A = Map.of("model", "hashing", "dimension", 384);
    private static final Map<String, Object> MODEL_B = Map.of("model", "hashing", "dimension", 256);
    private static final String FINGERPRINT_A = "hashing/1/fnv1a64/words+trigrams/sublinear-tf/l2/dim=384";
    private static final String FINGERPRINT_B = "hashing/1/fnv1a64/words+trigrams/sublinear-tf/l2/dim=256";

    @TempDir
    Path directory;

    private final String store = "reindex-test-" + UUID.randomUUID();
    private final List<MemoryProvider> opened = new ArrayList<>();

    @AfterEach
    void closeAll() {
        opened.forEach(MemoryProvider::close);
    }

    private MemoryProvider open(Map<String, Object> embedding, boolean forReindex) {
        return open("p", embedding, forReindex);
    }

    private MemoryProvider open(String project, Map<String, Object> embedding, boolean forReindex) {
        TestNeo4j.Server server = TestNeo4j.server();
        Map<String, Object> config = new HashMap<>(Map.of("url", server.uri().toString(), "username", server.username(),
                "password", server.password(), "store", store));
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
            List<String> written = writes.get(60, TimeUnit.SECONDS);
            assertThat(result.fingerprint()).isEqualTo(FINGERPRINT_B);
            for (String key : written) {
                assertThat(b.get(key, Scope.PROJECT)).get().extracting(MemoryEntry::value).asString().contains("tomatoes");
            }
            List<Hit> hits = b.search(SearchRequest.builder("fresh note gardening tomatoes").mode(SearchMode.SEMANTIC)
                    .limit(100).threshold(0.5).build());
            assertThat(hits).extracting(h -> h.entry().key()).containsExactlyInAnyOrderElementsOf(written);
        } finally {
            writer.shutdownNow();
        }
        b.close();
        assertThat(open(MODEL_B, false).query(Query.of("*"))).hasSize(620);
    }
}
