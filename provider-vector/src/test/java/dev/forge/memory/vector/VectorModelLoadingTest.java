package dev.forge.memory.vector;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.embeddings.internal.LocalModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The local model of a vector store is loaded (ONNX session, tokenizer) only when a vector is needed: reads, keyword
 * search and deletes of a store never load it; a write, a semantic or hybrid search or a reindex loads it once per
 * provider. Observed on the real model: its own {@link LocalModel#loaded()} and the JVM's count of loaded runtimes,
 * with a thread count no other test of this module uses, so that the runtime is this test's own.
 */
class VectorModelLoadingTest {

    private static final Map<String, Object> MINILM = Map.of("model", "minilm", "threads", 3);

    @TempDir
    Path base;

    private VectorMemoryProvider open() {
        return (VectorMemoryProvider) new VectorMemoryProviderFactory().open(VectorStores.context(base, "p",
                Map.of("embedding", MINILM)));
    }

    private void seed() {
        try (MemoryProvider provider = open()) {
            provider.set("move", "Jonas moved to Lisbon last spring.", Scope.PROJECT);
            provider.set("pet", "The cat is called Miso.", Scope.PROJECT, List.of("home"), Map.of("n", 1));
            provider.set("tea", "Ana drinks green tea every morning.", Scope.GLOBAL);
            provider.set("note", "a note of this session", Scope.SESSION);
        }
    }

    private static boolean loaded(VectorMemoryProvider provider) {
        return ((LocalModel) provider.embeddingModel()).loaded();
    }

    @Test
    void reads_keyword_search_and_deletes_do_not_load_the_model_a_semantic_search_loads_it_once() {
        seed();
        int before = LocalModel.loadedRuntimes();
        try (VectorMemoryProvider provider = open()) {
            assertThat(provider.get("move", Scope.PROJECT)).map(e -> e.value()).contains("Jonas moved to Lisbon last spring.");
            assertThat(provider.query(Query.builder().build())).hasSize(4);
            assertThat(provider.search(SearchRequest.keyword("cat Miso"))).extracting(h -> h.entry().key()).first().isEqualTo("pet");
            assertThat(provider.delete("note", Scope.SESSION)).isTrue();
            assertThat(provider.clear(Scope.SESSION)).isZero();
            assertThat(provider.history()).isEmpty();
            assertThat(provider.graph()).isEmpty();
            assertThat(provider.doctor()).isEmpty();
            assertThat(loaded(provider)).as("after reads, keyword search and deletes").isFalse();
            assertThat(LocalModel.loadedRuntimes()).isEqualTo(before);

            assertThat(provider.search(SearchRequest.builder("Which city did he relocate to?").mode(SearchMode.SEMANTIC).build()))
                    .extracting(h -> h.entry().key()).first().isEqualTo("move");
            assertThat(loaded(provider)).isTrue();
            assertThat(LocalModel.loadedRuntimes()).isEqualTo(before + 1);

            provider.search(SearchRequest.builder("What is the cat's name?").mode(SearchMode.HYBRID).build());
            provider.set("plant", "The fern needs water on Sundays.", Scope.PROJECT);
            assertThat(LocalModel.loadedRuntimes()).as("loaded once").isEqualTo(before + 1);
        }
        assertThat(LocalModel.loadedRuntimes()).as("released by close").isEqualTo(before);
    }

    @Test
    void a_write_and_a_reindex_load_the_model() {
        seed();
        try (VectorMemoryProvider provider = open()) {
            provider.set("plant", "The fern needs water on Sundays.", Scope.PROJECT);
            assertThat(loaded(provider)).isTrue();
        }
        try (VectorMemoryProvider provider = open()) {
            assertThat(provider.requireReindexing().reindex().entries()).isEqualTo(5);
            assertThat(loaded(provider)).isTrue();
        }
    }

    @Test
    void semantic_searches_started_together_on_a_new_provider_load_the_model_once() throws Exception {
        seed();
        int before = LocalModel.loadedRuntimes();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try (VectorMemoryProvider provider = open()) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<String>> first = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                first.add(pool.submit(() -> {
                    start.await();
                    return provider.search(SearchRequest.builder("Where does Jonas live now?").mode(SearchMode.SEMANTIC)
                            .build()).get(0).entry().key();
                }));
            }
            start.countDown();
            for (Future<String> key : first) {
                assertThat(key.get(2, TimeUnit.MINUTES)).isEqualTo("move");
            }
            assertThat(LocalModel.loadedRuntimes()).isEqualTo(before + 1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(LocalModel.loadedRuntimes()).as("one close released the one hold").isEqualTo(before);
    }
}
