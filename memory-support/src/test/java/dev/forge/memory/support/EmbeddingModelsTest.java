package dev.forge.memory.support;

import dev.forge.memory.embedding.EmbeddingModel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.ProviderConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmbeddingModelsTest {

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
        }
        return dot;
    }

    private static double length(float[] v) {
        return Math.sqrt(cosine(v, v));
    }

    private static EmbeddingModel hashing(Map<String, ?> settings) {
        return EmbeddingModels.load().open(ProviderConfig.of(settings));
    }

    @Test
    void the_hashing_model_is_found_by_service_loader_and_opened_from_an_embedding_block() {
        assertThat(EmbeddingModels.load().names()).contains("hashing");
        try (EmbeddingModel model = hashing(Map.of("model", "hashing", "dimension", 64))) {
            assertThat(model.name()).isEqualTo("hashing");
            assertThat(model.dimension()).isEqualTo(64);
            assertThat(model.embed("hello")).hasSize(64);
        }
    }

    @Test
    void vectors_have_unit_length_and_are_the_same_for_the_same_text_alone_or_in_a_batch() {
        EmbeddingModel model = hashing(Map.of("model", "hashing"));
        List<float[]> batch = model.embed(List.of("Deploy the service", "Quarterly revenue grew", "Deploy the service"));
        assertThat(batch).hasSize(3).allSatisfy(v -> assertThat(length(v)).isCloseTo(1.0, org.assertj.core.api.Assertions.within(1e-5)));
        assertThat(batch.get(0)).containsExactly(batch.get(2));
        assertThat(model.embed("Deploy the service")).containsExactly(batch.get(0));
        assertThat(hashing(Map.of("model", "hashing")).embed("Deploy the service")).as("another instance")
                .containsExactly(batch.get(0));
    }

    @Test
    void texts_sharing_words_or_word_parts_are_closer_than_unrelated_texts() {
        EmbeddingModel model = hashing(Map.of("model", "hashing"));
        float[] query = model.embed("deploy the service to production");
        double related = cosine(query, model.embed("Deployment of the payment service to production"));
        double unrelated = cosine(query, model.embed("The cat sat on the warm windowsill"));
        assertThat(related).isGreaterThan(unrelated + 0.2);
        assertThat(cosine(model.embed("deploy"), model.embed("deployment")))
                .as("trigrams bring word forms together").isGreaterThan(cosine(model.embed("deploy"), model.embed("windowsill")));
        assertThat(cosine(query, model.embed("DEPLOY the Service to production!"))).as("case and punctuation ignored")
                .isCloseTo(1.0, org.assertj.core.api.Assertions.within(1e-5));
    }

    @Test
    void a_text_without_words_is_the_zero_vector() {
        assertThat(length(hashing(Map.of("model", "hashing")).embed(" ... !? "))).isZero();
    }

    @Test
    void the_fingerprint_changes_with_anything_that_changes_the_vectors() {
        String small = hashing(Map.of("model", "hashing", "dimension", 64)).fingerprint();
        String large = hashing(Map.of("model", "hashing", "dimension", 128)).fingerprint();
        assertThat(small).isNotEqualTo(large).startsWith("hashing/");
        assertThat(hashing(Map.of("model", "hashing", "dimension", 64)).fingerprint()).isEqualTo(small);
    }

    @Test
    void unknown_missing_or_misconfigured_models_are_configuration_errors_naming_what_exists() {
        assertThatThrownBy(() -> hashing(Map.of("model", "minilm"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("minilm").hasMessageContaining("hashing");
        assertThatThrownBy(() -> hashing(Map.of("dimension", 64))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'model'");
        assertThatThrownBy(() -> hashing(Map.of("model", 5))).isInstanceOf(ConfigurationException.class);
        assertThatThrownBy(() -> hashing(Map.of("model", "hashing", "dimensions", 64)))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("dimension");
        assertThatThrownBy(() -> hashing(Map.of("model", "hashing", "dimension", 8)))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("16 to 4096");
    }

    @Test
    void two_factories_with_one_name_make_it_ambiguous_naming_both() {
        EmbeddingModels models = EmbeddingModels.of(new HashingEmbeddingModelFactory(), new HashingEmbeddingModelFactory());
        assertThatThrownBy(() -> models.open("hashing", ProviderConfig.empty())).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("Two embedding models").hasMessageContaining(HashingEmbeddingModelFactory.class.getName());
    }
}
