package dev.forge.memory.embeddings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.EmbeddingModels;
import dev.forge.memory.embeddings.internal.LocalModel;
import dev.forge.memory.spi.ProviderConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The minilm model, run for real: the ONNX model from the LangChain4j jar, no network. */
class MiniLmEmbeddingModelTest {

    private static EmbeddingModel model;

    @BeforeAll
    static void open() {
        model = open(Map.of());
    }

    @AfterAll
    static void close() {
        model.close();
    }

    private static EmbeddingModel open(Map<String, ?> settings) {
        return TestModels.open("minilm", settings);
    }

    private static double cosine(float[] a, float[] b) {
        return TestModels.cosine(a, b);
    }

    @Test
    void the_model_is_found_by_service_loader_and_makes_384_dimensional_unit_vectors() {
        assertThat(EmbeddingModels.load().names()).contains("minilm", "hashing");
        assertThat(model.name()).isEqualTo("minilm");
        assertThat(model.dimension()).isEqualTo(384);
        List<float[]> vectors = model.embed(List.of("Deploy the payment service on Friday.", "I prefer dark mode.",
                "Ünïcödé, emoji 🚀 and 中文 are fine too"));
        assertThat(vectors).hasSize(3).allSatisfy(v -> {
            assertThat(v).hasSize(384);
            assertThat(Math.sqrt(cosine(v, v))).isCloseTo(1.0, within(1e-5));
        });
    }

    @Test
    void the_same_text_gets_the_same_vector_every_time_and_in_every_instance() {
        String text = "We decided to keep the billing database on Postgres 16.";
        float[] first = model.embed(text);
        assertThat(model.embed(text)).containsExactly(first);
        try (EmbeddingModel other = open(Map.of("threads", 1))) {
            assertThat(other.embed(text)).as("another session, other thread count").containsExactly(first);
        }
    }

    @Test
    void a_paraphrase_is_closer_than_an_unrelated_sentence() {
        float[] question = model.embed("How do I reset my password?");
        double paraphrase = cosine(question, model.embed("I forgot my login credentials"));
        double unrelated = cosine(question, model.embed("The weather is sunny today"));
        assertThat(paraphrase).isGreaterThan(unrelated + 0.3);
        assertThat(paraphrase).isGreaterThan(0.4);
    }

    @Test
    void a_batch_gets_exactly_the_vectors_of_its_texts_embedded_alone() {
        List<String> texts = List.of("How do I reset my password?", "", "The weather is sunny today",
                "A much longer sentence about moving the payment service to the new cluster before the Friday release.",
                "How do I reset my password?");
        List<float[]> batch = model.embed(texts);
        assertThat(batch).hasSize(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            assertThat(batch.get(i)).as(texts.get(i)).containsExactly(model.embed(texts.get(i)));
        }
    }

    @Test
    void a_larger_batch_size_runs_texts_together_and_stays_close_to_their_own_vectors() {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            texts.add("Note " + i + ": the team agreed to " + (i % 2 == 0 ? "ship on Thursdays" : "review every pull request"));
        }
        try (EmbeddingModel batched = open(Map.of("batch_size", 8))) {
            List<float[]> together = batched.embed(texts);
            for (int i = 0; i < texts.size(); i++) {
                assertThat(cosine(together.get(i), model.embed(texts.get(i)))).as(texts.get(i)).isGreaterThan(0.95);
                assertThat(Math.sqrt(cosine(together.get(i), together.get(i)))).isCloseTo(1.0, within(1e-5));
            }
            assertThat(batched.fingerprint()).isEqualTo(model.fingerprint());
        }
    }

    @Test
    void many_threads_embedding_at_once_get_identical_vectors() throws Exception {
        List<String> texts = List.of("Alice prefers tabs.", "Bob rolled back the release.", "Standup moves to 9:30.",
                "The staging cluster is in eu-west-1.", "");
        List<float[]> expected = model.embed(texts);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<List<float[]>>>> results = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                int shift = t;
                results.add(pool.submit(() -> {
                    start.await();
                    List<List<float[]>> rounds = new ArrayList<>();
                    for (int round = 0; round < 5; round++) {
                        List<String> rotated = new ArrayList<>(texts);
                        Collections.rotate(rotated, shift + round);
                        List<float[]> vectors = new ArrayList<>(model.embed(rotated));
                        Collections.rotate(vectors, -(shift + round));
                        rounds.add(vectors);
                    }
                    return rounds;
                }));
            }
            start.countDown();
            for (Future<List<List<float[]>>> result : results) {
                for (List<float[]> round : result.get(2, TimeUnit.MINUTES)) {
                    for (int i = 0; i < texts.size(); i++) {
                        assertThat(round.get(i)).containsExactly(expected.get(i));
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void an_empty_list_gives_an_empty_list_and_an_empty_text_a_unit_vector() {
        assertThat(model.embed(List.of())).isEmpty();
        float[] empty = model.embed("");
        assertThat(empty).hasSize(384);
        assertThat(Math.sqrt(cosine(empty, empty))).isCloseTo(1.0, within(1e-5));
        assertThatThrownBy(() -> model.embed(Collections.singletonList(null))).isInstanceOf(NullPointerException.class);
    }

    @Test
    void a_text_longer_than_max_tokens_is_cut_and_only_its_beginning_counts() {
        StringBuilder beginning = new StringBuilder("The release checklist:");
        for (int i = 0; i < 300; i++) {
            beginning.append(" step");
        }
        String a = beginning + " and then we celebrate with cake.";
        String b = beginning + " and afterwards the database migration is rolled back in production.";
        assertThat(model.embed(a)).containsExactly(model.embed(b));
        try (EmbeddingModel wide = open(Map.of("max_tokens", 512))) {
            assertThat(wide.embed(a)).isNotEqualTo(wide.embed(b));
            assertThat(wide.fingerprint()).isNotEqualTo(model.fingerprint()).contains(":max512:");
        }
    }

    @Test
    void bad_settings_are_configuration_errors_naming_the_key() {
        assertThatThrownBy(() -> open(Map.of("thread", 2))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'memory.config.embedding.thread'").hasMessageContaining("threads")
                .hasMessageContaining("batch_size").hasMessageContaining("max_tokens");
        assertThatThrownBy(() -> open(Map.of("threads", 0))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("threads").hasMessageContaining("1 to 64");
        assertThatThrownBy(() -> open(Map.of("batch_size", "many"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("batch_size")
                .satisfies(e -> assertThat(((ConfigurationException) e).field()).contains("memory.config.embedding.batch_size"));
        assertThatThrownBy(() -> open(Map.of("max_tokens", 4096))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("max_tokens").hasMessageContaining("512");
    }

    @Test
    void the_fingerprint_names_model_version_file_hash_cut_pooling_and_normalisation() {
        assertThat(model.fingerprint())
                .matches("minilm:all-MiniLM-L6-v2-q:1\\.20\\.0-beta30:sha256-[0-9a-f]{12}:max256:mean:l2");
        try (EmbeddingModel again = open(Map.of("threads", 1, "batch_size", 4))) {
            assertThat(again.fingerprint()).as("threads and batch size do not change the model").isEqualTo(model.fingerprint());
        }
        try (EmbeddingModel hashing = EmbeddingModels.load().open(ProviderConfig.of(Map.of("model", "hashing")))) {
            assertThat(hashing.fingerprint()).isNotEqualTo(model.fingerprint());
        }
    }

    @Test
    void models_with_the_same_settings_share_one_loaded_session_until_the_last_is_closed() {
        int before = LocalModel.loadedRuntimes();
        EmbeddingModel first = open(Map.of("threads", 3));
        EmbeddingModel second = open(Map.of("threads", 3, "batch_size", 16));
        float[] vector = first.embed("shared");
        second.embed("loaded by the first");
        assertThat(LocalModel.loadedRuntimes()).isEqualTo(before + 1);
        first.close();
        first.close();
        assertThatThrownBy(() -> first.embed("closed")).isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("closed");
        assertThat(second.embed("shared")).as("the other model still works").containsExactly(vector);
        second.close();
        assertThat(LocalModel.loadedRuntimes()).isEqualTo(before);
    }

    @Test
    void closing_the_last_model_stops_its_threads() throws IOException {
        Path tasks = Path.of("/proc/self/task");
        assumeTrue(Files.isDirectory(tasks), "needs Linux /proc to see native threads");
        // Native threads (ONNX runtime's) take the process name; the JVM names its own after the Thread.
        String process = Files.readString(Path.of("/proc/self/comm")).trim();
        long nativeBefore = threadsNamed(tasks, process);
        EmbeddingModel fourThreads = open(Map.of("threads", 4, "max_tokens", 128));
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            texts.add("text number " + i + " keeps the workers busy");
        }
        assertThat(fourThreads.embed(texts)).hasSize(64);
        assertThat(threadsNamed(tasks, "forge-minilm-")).as("workers while open").isPositive();
        fourThreads.close();
        assertThat(threadsNamed(tasks, "forge-minilm-")).as("workers after close").isZero();
        assertThat(threadsNamed(tasks, process)).as("native threads after close").isLessThanOrEqualTo(nativeBefore);
    }

    private static long threadsNamed(Path tasks, String prefix) throws IOException {
        try (Stream<Path> list = Files.list(tasks)) {
            return list.filter(task -> {
                try {
                    return Files.readString(task.resolve("comm")).trim().startsWith(prefix);
                } catch (IOException e) {
                    return false; // the thread ended while we looked
                }
            }).count();
        }
    }
}
