package dev.forge.memory.embeddings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.embeddings.internal.LocalModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A local model loads its ONNX session and tokenizer on the first text it embeds, not when it is opened: opening
 * gives its name, dimension and fingerprint (what a provider checks its index against) without loading it. Each test
 * uses a thread count no other test of this module uses, so that the runtime it loads is its own.
 */
class LocalModelLoadingTest {

    @ParameterizedTest
    @ValueSource(strings = {"minilm", "bge-small", "e5-small"})
    void opening_gives_the_fingerprint_without_loading_the_model(String name) {
        int before = LocalModel.loadedRuntimes();
        try (EmbeddingModel model = TestModels.open(name, Map.of("threads", 7))) {
            assertThat(model.name()).isEqualTo(name);
            assertThat(model.dimension()).isEqualTo(384);
            assertThat(model.fingerprint()).startsWith(name + ":").contains(":sha256-");
            assertThat(((LocalModel) model).loaded()).isFalse();
            assertThat(LocalModel.loadedRuntimes()).isEqualTo(before);

            assertThat(model.embed("the first text loads it")).hasSize(384);
            assertThat(((LocalModel) model).loaded()).isTrue();
            assertThat(LocalModel.loadedRuntimes()).isEqualTo(before + 1);
        }
        assertThat(LocalModel.loadedRuntimes()).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"minilm", "bge-small", "e5-small"})
    void the_fingerprint_is_the_same_before_and_after_loading(String name) {
        try (EmbeddingModel lazy = TestModels.open(name, Map.of("threads", 6));
             EmbeddingModel used = TestModels.open(name, Map.of("threads", 6))) {
            String unloaded = lazy.fingerprint();
            used.embed("load it");
            assertThat(used.fingerprint()).isEqualTo(unloaded);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void many_threads_embedding_first_at_once_load_the_model_once(int threads) throws Exception {
        int before = LocalModel.loadedRuntimes();
        EmbeddingModel model = TestModels.open("minilm", Map.of("threads", threads + 8));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<float[]>> vectors = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                vectors.add(pool.submit(() -> {
                    start.await();
                    return model.embed("the same text from every thread");
                }));
            }
            start.countDown();
            float[] first = vectors.get(0).get(2, TimeUnit.MINUTES);
            for (Future<float[]> vector : vectors) {
                assertThat(vector.get(2, TimeUnit.MINUTES)).containsExactly(first);
            }
            assertThat(LocalModel.loadedRuntimes()).isEqualTo(before + 1);
        } finally {
            pool.shutdownNow();
            model.close();
        }
        // one close releases it: the model took one hold on the runtime, however many threads raced to load it
        assertThat(LocalModel.loadedRuntimes()).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"minilm", "bge-small", "e5-small"})
    void a_model_closed_before_its_first_text_loads_nothing_and_then_refuses(String name) {
        int before = LocalModel.loadedRuntimes();
        EmbeddingModel model = TestModels.open(name, Map.of("threads", 5));
        model.close();
        assertThatThrownBy(() -> model.embed("too late")).isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("closed").hasMessageContaining(name);
        assertThat(LocalModel.loadedRuntimes()).isEqualTo(before);
    }
}
