package dev.forge.memory.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.forge.memory.Capability;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Hit;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;

/** The embedding block: no model, no semantic search; the store's fingerprint; entries written without a model; dimensions. */
class GraphEmbeddingTest {

    @TempDir
    Path directory;

    private final String store = "embedding-test-" + UUID.randomUUID();

    private MemoryProvider open(Map<String, Object> embedding) {
        return open(store, embedding);
    }

    private MemoryProvider open(String store, Map<String, Object> embedding) {
        Map<String, Object> config = TestNeo4j.connection();
        config.put("store", store);
        if (embedding != null) {
            config.put("embedding", embedding);
        }
        ProviderContext context = ProviderContext.builder().projectId("p").sessionId("s").baseDirectory(directory)
                .forgeHome(directory.resolve("forge-home")).registry(ProviderRegistry.of())
                .config(ProviderConfig.of(config, "test", "memory.config")).build();
        return new GraphMemoryProviderFactory().open(context);
    }

    @Test
    void without_an_embedding_block_semantic_and_hybrid_search_are_refused() {
        try (MemoryProvider provider = open(null)) {
            assertThat(provider.capabilities()).doesNotContain(Capability.SEMANTIC_SEARCH).contains(Capability.KEYWORD_SEARCH);
            for (SearchMode mode : List.of(SearchMode.SEMANTIC, SearchMode.HYBRID)) {
                assertThatThrownBy(() -> provider.search(SearchRequest.builder("anything").mode(mode).build()))
                        .isInstanceOf(UnsupportedCapabilityException.class);
            }
        }
    }

    @Test
    void a_model_of_another_fingerprint_is_refused_naming_both_fingerprints() {
        try (MemoryProvider provider = open(Map.of("model", "hashing"))) {
            assertThat(provider.capabilities()).contains(Capability.SEMANTIC_SEARCH);
            provider.set("finance", "Quarterly revenue grew", Scope.PROJECT);
        }
        assertThatThrownBy(() -> open(Map.of("model", "hashing", "dimension", 128)))
                .isInstanceOf(IndexModelMismatchException.class)
                .hasMessageContaining("dim=384").hasMessageContaining("dim=128").hasMessageContaining("forge-memory reindex");
        try (MemoryProvider again = open(Map.of("model", "hashing"))) {
            assertThat(again.get("finance", Scope.PROJECT)).isPresent();
        }
    }

    @Test
    void entries_written_without_a_model_get_vectors_when_a_model_opens_the_store() {
        try (MemoryProvider plain = open(null)) {
            plain.set("finance", "Quarterly revenue grew by twelve percent", Scope.PROJECT);
        }
        try (MemoryProvider provider = open(Map.of("model", "hashing"))) {
            List<Hit> hits = provider.search(SearchRequest.builder("quarterly revenue").mode(SearchMode.SEMANTIC).build());
            assertThat(hits).extracting(h -> h.entry().key()).containsExactly("finance");
        }
    }

    @Test
    void stores_with_models_of_different_dimensions_share_a_database() {
        try (MemoryProvider wide = open(Map.of("model", "hashing"));
             MemoryProvider narrow = open(store + "-other", Map.of("model", "hashing", "dimension", 128))) {
            wide.set("finance", "Quarterly revenue grew by twelve percent", Scope.PROJECT);
            narrow.set("garden", "Tomatoes need full sun and deep watering", Scope.PROJECT);
            assertThat(wide.search(SearchRequest.builder("quarterly revenue").mode(SearchMode.SEMANTIC).build()))
                    .extracting(h -> h.entry().key()).containsExactly("finance");
            assertThat(narrow.search(SearchRequest.builder("tomatoes watering").mode(SearchMode.SEMANTIC).build()))
                    .extracting(h -> h.entry().key()).containsExactly("garden");
        }
    }

    @Test
    void an_unknown_model_is_a_configuration_error() {
        assertThatThrownBy(() -> open(Map.of("model", "no-such-model")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("no-such-model").hasMessageContaining("hashing");
    }
}
