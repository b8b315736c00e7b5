package dev.forge.memory.embeddings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.support.EmbeddingModels;
import dev.forge.memory.spi.ProviderConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Prints how many short chat-like sentences per second each local model embeds; asserts only that the vectors are
 * sane, never a speed. Read the numbers in {@code target/surefire-reports/*LocalModelThroughputTest-output.txt}.
 */
class LocalModelThroughputTest {

    private static final String[] WHO = {"I", "We", "My team", "The client", "Alice", "Bob", "Our lead", "Priya"};
    private static final String[] DID = {"prefer", "decided to use", "switched to", "want to try", "had trouble with",
            "rolled back", "asked about", "will review"};
    private static final String[] WHAT = {"Postgres for the billing service", "dark mode in the editor",
            "weekly releases on Thursday", "the new CI pipeline", "Kotlin for the Android app", "a shorter standup",
            "tabs instead of spaces", "the staging cluster in eu-west-1"};
    private static final String[] WHEN = {".", " last week.", " since the outage?", " — any thoughts?",
            " after lunch.", " for the demo tomorrow!", " (see ticket 4711).", " again, sorry."};

    /** 512 distinct short turns, as a chat log would hold. */
    static List<String> sentences() {
        List<String> sentences = new ArrayList<>();
        for (int i = 0; sentences.size() < 512; i++) {
            sentences.add(WHO[i % 8] + " " + DID[(i / 8) % 8] + " " + WHAT[(i / 64) % 8] + WHEN[(i * 3 + i / 8) % 8]);
        }
        return sentences;
    }

    @ParameterizedTest
    @ValueSource(strings = {"minilm", "bge-small", "e5-small"})
    void embeds_512_chat_turns_one_thread_default_threads_and_batched(String name) {
        List<String> sentences = sentences();
        assertThat(sentences).doesNotHaveDuplicates();
        int cores = Runtime.getRuntime().availableProcessors();
        System.out.printf(Locale.ROOT, "%s throughput, %d sentences, %d processors, Java %s%n", name, sentences.size(),
                cores, System.getProperty("java.version"));
        List<float[]> reference = measure(name, "threads=1 batch_size=1 (single-threaded)", Map.of("threads", 1), sentences,
                null, false);
        measure(name, "threads=default(" + Math.min(cores, 4) + ") batch_size=1 (defaults)", Map.of(), sentences, reference,
                true);
        measure(name, "threads=default(" + Math.min(cores, 4) + ") batch_size=64", Map.of("batch_size", 64), sentences,
                reference, false);
    }

    private static List<float[]> measure(String name, String label, Map<String, Object> settings, List<String> sentences,
                                         List<float[]> reference, boolean exact) {
        Map<String, Object> block = new HashMap<>(settings);
        block.put("model", name);
        try (EmbeddingModel model = EmbeddingModels.load().open(ProviderConfig.of(block))) {
            model.embed(sentences.subList(0, 32)); // warm up
            long start = System.nanoTime();
            List<float[]> vectors = model.embed(sentences);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf(Locale.ROOT, "  %-48s %7.0f sentences/s (%.2f ms each)%n", label,
                    sentences.size() / seconds, seconds * 1000 / sentences.size());
            assertThat(vectors).hasSize(sentences.size());
            for (int i = 0; i < vectors.size(); i++) {
                float[] v = vectors.get(i);
                assertThat(v).hasSize(384);
                assertThat(Math.sqrt(dot(v, v))).isCloseTo(1.0, within(1e-5));
                if (reference != null) {
                    assertThat(dot(v, reference.get(i))).as(sentences.get(i)).isGreaterThan(exact ? 0.99999 : 0.95);
                }
            }
            // Turns about one topic (sentences 0..63 share theirs) are nearer each other than to turns about another.
            double sameTopic = 0;
            double otherTopic = 0;
            for (int i = 1; i <= 16; i++) {
                sameTopic += dot(vectors.get(0), vectors.get(i));
                otherTopic += dot(vectors.get(0), vectors.get(64 * 3 + i));
            }
            assertThat(sameTopic).isGreaterThan(otherTopic);
            assertThat(vectors.get(0)).isNotEqualTo(vectors.get(1));
            return vectors;
        }
    }

    private static double dot(float[] a, float[] b) {
        double dot = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
        }
        return dot;
    }
}
