package dev.forge.memory.vector;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.support.FusionMethod;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Binding of the vector provider's config: defaults, ranges, unknown keys and models, and where the index goes. */
class VectorConfigTest {

    @TempDir
    Path base;

    private MemoryProvider open(Map<String, Object> config) {
        return new VectorMemoryProviderFactory().open(VectorStores.context(base, "p", config));
    }

    @Test
    void defaults_are_the_documented_ones() {
        VectorConfig defaults = VectorConfig.defaults();
        assertThat(defaults.path()).isEqualTo(".forge/vectors");
        assertThat(defaults.globalPath()).isNull();
        assertThat(defaults.embedding()).as("no model named: the index's, else e5-small").isEmpty();
        assertThat(VectorConfig.DEFAULT_MODEL).isEqualTo("e5-small");
        assertThat(defaults.fusion()).isEqualTo(FusionMethod.MAX_ZSCORE);
        assertThat(defaults.rrfK()).isEqualTo(60);
        assertThat(defaults.keywordWeight()).isEqualTo(1.0);
        assertThat(defaults.overfetch()).isEqualTo(4);
        assertThat(defaults.exactLimit()).isEqualTo(10_000);
    }

    @Test
    void an_unknown_key_is_rejected_with_the_known_keys() {
        assertThatThrownBy(() -> open(Map.of("embedding", Map.of("model", "hashing"), "rrf", 10)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("rrf")
                .hasMessageContaining("embedding, exact_limit, fusion, global_path, keyword_weight, overfetch, path, rrf_k")
                .hasMessageContaining("Did you mean 'rrf_k'");
        assertThat(base.resolve(".forge")).doesNotExist();
    }

    @Test
    void an_unknown_fusion_is_rejected_with_the_known_ones() {
        assertThatThrownBy(() -> open(VectorStores.hashing(64, Map.of("fusion", "combsum"))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("use max_zscore, clipped_zscore, zscore or rrf");
    }

    @Test
    void an_unknown_model_is_rejected_with_the_known_model_names() {
        assertThatThrownBy(() -> open(Map.of("embedding", Map.of("model", "no-such-model"))))
                .isInstanceOfSatisfying(ConfigurationException.class, e -> {
                    assertThat(e.getMessage()).contains("no-such-model").contains("hashing");
                    assertThat(e.field()).contains("memory.config.embedding");
                    assertThat(e.source()).contains("test.yaml");
                });
        assertThat(base.resolve(".forge")).doesNotExist();
    }

    @Test
    void a_bad_model_setting_is_a_configuration_error() {
        assertThatThrownBy(() -> open(Map.of("embedding", Map.of("model", "hashing", "dimension", 8))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("dimension");
        assertThatThrownBy(() -> open(Map.of("embedding", Map.of("model", "hashing", "dimensions", 64))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("dimensions");
    }

    @Test
    void values_out_of_range_are_rejected_naming_the_key() {
        assertThatThrownBy(() -> open(VectorStores.hashing(64, Map.of("rrf_k", 0))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("rrf_k");
        assertThatThrownBy(() -> open(VectorStores.hashing(64, Map.of("overfetch", 0))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("overfetch");
        assertThatThrownBy(() -> open(VectorStores.hashing(64, Map.of("exact_limit", -1))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("exact_limit");
        assertThatThrownBy(() -> open(VectorStores.hashing(64, Map.of("path", " "))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("path");
        for (double weight : new double[] {0, -0.1, 1.01}) {
            assertThatThrownBy(() -> open(VectorStores.hashing(64, Map.of("keyword_weight", weight))))
                    .isInstanceOf(ConfigurationException.class).hasMessageContaining("keyword_weight");
        }
        assertThatThrownBy(() -> open(VectorStores.hashing(64, Map.of("rrf_k", "sixty"))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("rrf_k");
    }

    @Test
    void a_model_larger_than_lucene_indexes_is_refused_at_open() {
        assertThatThrownBy(() -> open(VectorStores.hashing(2048, Map.of())))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("1024");
    }

    @Test
    void the_index_goes_to_forge_vectors_by_default_and_relative_paths_resolve_against_the_base_directory() throws Exception {
        try (MemoryProvider provider = open(VectorStores.hashing(64, Map.of()))) {
            provider.set("k", "v", Scope.PROJECT);
            assertThat(((VectorMemoryProvider) provider).directory()).isEqualTo(base.resolve(".forge/vectors").toRealPath());
        }
        try (MemoryProvider provider = open(VectorStores.hashing(64, Map.of("path", "elsewhere/index")))) {
            assertThat(((VectorMemoryProvider) provider).directory()).isEqualTo(base.resolve("elsewhere/index").toRealPath());
            assertThat(provider.get("k", Scope.PROJECT)).isEmpty();
        }
        assertThat(Files.list(base.resolve("elsewhere/index")).map(p -> p.getFileName().toString()))
                .anyMatch(name -> name.startsWith("segments_"));
    }

    @Test
    void global_goes_to_vectors_under_the_forge_home_by_default_and_a_relative_global_path_resolves_like_path()
            throws Exception {
        try (VectorMemoryProvider provider = (VectorMemoryProvider) open(VectorStores.hashing(64, Map.of()))) {
            assertThat(provider.globalDirectory()).isEqualTo(base.resolve("forge-home/vectors").toRealPath());
        }
        try (VectorMemoryProvider provider = (VectorMemoryProvider) open(VectorStores.hashing(64,
                Map.of("global_path", "shared/global-index")))) {
            assertThat(provider.globalDirectory()).isEqualTo(base.resolve("shared/global-index").toRealPath());
        }
        assertThatThrownBy(() -> open(VectorStores.hashing(64, Map.of("global_path", " "))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("'global_path' must not be blank");
    }

    @Test
    void the_factory_is_found_by_name_and_reports_its_capabilities() {
        assertThat(dev.forge.memory.spi.ProviderRegistry.load().names()).contains("vector");
        assertThat(new VectorMemoryProviderFactory().capabilities()).containsExactlyInAnyOrder(
                dev.forge.memory.Capability.KEYWORD_SEARCH, dev.forge.memory.Capability.SEMANTIC_SEARCH,
                dev.forge.memory.Capability.REINDEX, dev.forge.memory.Capability.RESTORE);
    }
}
