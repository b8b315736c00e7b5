package dev.forge.memory.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.support.EmbeddingModels;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the vectors' SQL is made of, without a server: pgvector's version gates, the text form of a vector, the model
 * tag of a fingerprint, and the vectors kept (none for a text without words, a refusal for a model that breaks its
 * own dimension).
 */
class PgVectorsTest {

    @Test
    void versions_gate_hnsw_at_0_5_and_iterative_scans_at_0_8() {
        assertThat(PgVectors.atLeast("0.8.6", 0, 8)).isTrue();
        assertThat(PgVectors.atLeast("0.7.4", 0, 8)).isFalse();
        assertThat(PgVectors.atLeast("0.5.0", 0, 5)).isTrue();
        assertThat(PgVectors.atLeast("0.4.4", 0, 5)).isFalse();
        assertThat(PgVectors.atLeast("1.0", 0, 8)).isTrue();
        assertThat(PgVectors.atLeast("0.8.0-dev", 0, 8)).isTrue();
        assertThat(PgVectors.atLeast("unknown", 0, 5)).isFalse();
    }

    @Test
    void a_vector_is_written_in_pgvector_text_form() {
        assertThat(PgVectors.literal(new float[] {1f, -0.5f, 1.0e-5f})).isEqualTo("[1.0,-0.5,1.0E-5]");
    }

    @Test
    void a_model_tag_is_a_stable_non_negative_number_per_fingerprint() {
        long tag = PgVectors.tagOf("hashing/1/dim=64");
        assertThat(tag).isNotNegative().isEqualTo(PgVectors.tagOf("hashing/1/dim=64"));
        assertThat(PgVectors.tagOf("hashing/1/dim=128")).isNotEqualTo(tag);
    }

    @Test
    void a_text_without_words_gets_no_vector_and_a_wrong_dimension_is_refused() {
        EmbeddingModel model = EmbeddingModels.load().open("hashing", ProviderConfig.of(Map.of("dimension", 16)));
        assertThat(PgVectors.checked(model, model.embed("the cache expires"))).hasSize(16);
        assertThat(PgVectors.checked(model, new float[16])).isNull();
        assertThatThrownBy(() -> PgVectors.checked(model, new float[8])).isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("8 components").hasMessageContaining("16");
    }
}
