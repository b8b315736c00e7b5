package dev.forge.memory.langchain4j;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.config.Memories;
import dev.forge.memory.spi.ProviderConfig;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Any LangChain4j embedding model as a forge-memory one: directly, and by config through the registry. */
class LangChain4jEmbeddingModelTest {

    @TempDir
    Path project;

    /** A LangChain4j model whose vectors are not of unit length: {@code [length, 1]} for each text. */
    static final class LengthModel implements EmbeddingModel {
        @Override
        public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
            return Response.from(segments.stream().map(s -> Embedding.from(new float[] {s.text().length(), 1f})).toList());
        }

        @Override
        public int dimension() {
            return 2;
        }
    }

    @Test
    void vectors_get_unit_length_and_the_fingerprint_names_the_id_and_dimension() {
        LangChain4jEmbeddingModel model = new LangChain4jEmbeddingModel(new LengthModel(), "length/v1");
        assertThat(model.name()).isEqualTo("langchain4j");
        assertThat(model.dimension()).isEqualTo(2);
        assertThat(model.fingerprint()).isEqualTo("langchain4j:length/v1:2:l2");
        float[] vector = model.embed("abc");
        assertThat(vector[0]).isCloseTo(3f / (float) Math.sqrt(10), within(1e-6f));
        assertThat(vector[1]).isCloseTo(1f / (float) Math.sqrt(10), within(1e-6f));
        assertThat(model.embed(List.of("a", "abc"))).hasSize(2);
        assertThat(new LangChain4jEmbeddingModel(Stores.MODEL, "all-minilm-l6-v2-q").fingerprint())
                .isEqualTo("langchain4j:all-minilm-l6-v2-q:384:l2");
    }

    @Test
    void a_registered_model_is_what_a_project_config_names_and_semantic_search_uses_it() throws Exception {
        Files.createDirectories(project.resolve(".forge"));
        Files.writeString(project.resolve(".forge/config.yaml"), """
                memory:
                  provider: vector
                  config:
                    embedding: { model: langchain4j, id: minilm-from-langchain4j }
                """);
        try (var registration = LangChain4jEmbeddingModels.register("minilm-from-langchain4j", Stores.MODEL);
             MemoryProvider memory = Memories.builder().projectDirectory(project).userHome(project.resolve("home"))
                     .environment(Map.of()).plugins(false).open()) {
            assertThat(LangChain4jEmbeddingModels.ids()).contains(registration.id());
            memory.set("deploys", "We deploy to production every Friday after the review.", Scope.PROJECT);
            memory.set("lunch", "The canteen serves soup on Mondays.", Scope.PROJECT);
            List<Hit> hits = memory.search(SearchRequest.builder("When do releases go live?").mode(SearchMode.SEMANTIC)
                    .limit(1).build());
            assertThat(hits).singleElement().satisfies(h -> assertThat(h.entry().key()).isEqualTo("deploys"));
        }
        assertThat(LangChain4jEmbeddingModels.ids()).doesNotContain("minilm-from-langchain4j");
    }

    @Test
    void an_id_nobody_registered_is_a_configuration_error_that_says_how_to_register_it() {
        LangChain4jEmbeddingModelFactory factory = new LangChain4jEmbeddingModelFactory();
        assertThatThrownBy(() -> factory.open(ProviderConfig.of(Map.of("id", "ollama/nomic"), "config.yaml", "memory.config.embedding")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'ollama/nomic'")
                .hasMessageContaining("LangChain4jEmbeddingModels.register(\"ollama/nomic\", model)");
        assertThatThrownBy(() -> factory.open(ProviderConfig.of(Map.of(), "config.yaml", "memory.config.embedding")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("needs 'id'");
        assertThatThrownBy(() -> factory.open(ProviderConfig.of(Map.of("id", "x", "dimension", 3), "config.yaml",
                "memory.config.embedding"))).isInstanceOf(ConfigurationException.class).hasMessageContaining("'dimension'");
    }

    @Test
    void one_id_cannot_be_registered_twice_until_the_first_is_closed() {
        try (var first = LangChain4jEmbeddingModels.register("twice", new LengthModel())) {
            assertThatThrownBy(() -> LangChain4jEmbeddingModels.register("twice", new LengthModel()))
                    .isInstanceOf(ConfigurationException.class).hasMessageContaining("'twice'");
        }
        LangChain4jEmbeddingModels.register("twice", new LengthModel()).close();
    }
}
