package dev.forge.memory.embeddings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.support.EmbeddingModels;
import dev.forge.memory.support.QueryEmbedding;
import dev.langchain4j.model.embedding.onnx.e5smallv2q.E5SmallV2QuantizedEmbeddingModel;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The e5-small model, run for real: the ONNX model from the LangChain4j jar, no network. */
class E5SmallEmbeddingModelTest {

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
        return TestModels.open("e5-small", settings);
    }

    private static double cosine(float[] a, float[] b) {
        return TestModels.cosine(a, b);
    }

    @Test
    void the_model_is_found_by_service_loader_and_makes_384_dimensional_unit_vectors() {
        assertThat(EmbeddingModels.load().names()).contains("e5-small", "bge-small", "minilm", "hashing");
        assertThat(model.name()).isEqualTo("e5-small");
        assertThat(model.dimension()).isEqualTo(384);
        assertThat(model.embed(List.of("Deploy the payment service on Friday.", "", "Ünïcödé and 中文 too"))).hasSize(3)
                .allSatisfy(v -> {
                    assertThat(v).hasSize(384);
                    assertThat(Math.sqrt(cosine(v, v))).isCloseTo(1.0, within(1e-5));
                });
    }

    @Test
    void a_stored_text_is_embedded_as_a_passage_as_langchain4j_s_own_runner_embeds_it_mean_pooled() {
        E5SmallV2QuantizedEmbeddingModel reference = new E5SmallV2QuantizedEmbeddingModel();
        for (String text : List.of("Caroline went to the LGBTQ support group on 7 May 2023.",
                "Melanie: I painted a sunrise over the lake last year.")) {
            float[] theirs = reference.embed("passage: " + text).content().vector();
            assertThat(cosine(model.embed(text), theirs)).as(text).isGreaterThan(0.999);
        }
    }

    @Test
    void a_query_gets_the_query_prefix_and_a_stored_text_the_passage_prefix() {
        E5SmallV2QuantizedEmbeddingModel reference = new E5SmallV2QuantizedEmbeddingModel();
        String question = "When did Caroline go to the support group?";
        float[] query = QueryEmbedding.vectorOfQuery(model, question);
        assertThat(cosine(query, reference.embed("query: " + question).content().vector())).isGreaterThan(0.999);
        assertThat(cosine(query, model.embed(question))).as("the same text as a passage").isLessThan(0.99);
        try (EmbeddingModel plain = open(Map.of("query_instruction", "passage: "))) {
            assertThat(plain.fingerprint()).as("the query prefix changes no stored vector").isEqualTo(model.fingerprint());
            assertThat(cosine(QueryEmbedding.vectorOfQuery(plain, question), model.embed(question))).isCloseTo(1.0, within(1e-6));
        }
    }

    @Test
    void a_question_is_closer_to_the_passage_that_answers_it_than_to_others() {
        float[] query = QueryEmbedding.vectorOfQuery(model, "What did Melanie paint?");
        List<float[]> passages = model.embed(List.of(
                "Melanie: I painted a sunrise over the lake last year.",
                "Caroline: I went to a support group yesterday and it was powerful.",
                "Melanie: We took the kids camping in the mountains."));
        assertThat(cosine(query, passages.get(0))).isGreaterThan(cosine(query, passages.get(1)))
                .isGreaterThan(cosine(query, passages.get(2)));
    }

    @Test
    void the_fingerprint_names_the_model_and_mean_pooling_and_differs_from_bge_small() {
        assertThat(model.fingerprint())
                .matches("e5-small:e5-small-v2-q:1\\.20\\.0-beta30:sha256-[0-9a-f]{12}:max512:mean:l2");
        try (EmbeddingModel shorter = open(Map.of("max_tokens", 256));
             EmbeddingModel bge = EmbeddingModels.load().open(ProviderConfig.of(Map.of("model", "bge-small")))) {
            assertThat(shorter.fingerprint()).endsWith(":max256:mean:l2");
            assertThat(bge.fingerprint()).startsWith("bge-small:").isNotEqualTo(model.fingerprint());
        }
    }

    @Test
    void bad_settings_are_configuration_errors_naming_the_model_and_key() {
        assertThatThrownBy(() -> open(Map.of("max_tokens", 1024))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'max_tokens' of the e5-small model must be 16 to 512, not 1024");
        assertThatThrownBy(() -> open(Map.of("passage_prefix", "x"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("passage_prefix");
    }
}
