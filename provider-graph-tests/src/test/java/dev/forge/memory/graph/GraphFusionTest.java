package dev.forge.memory.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.forge.memory.Hit;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.support.FusionMethod;
import dev.forge.memory.support.SemanticScorer;

/**
 * HYBRID search on the graph provider fuses its own keyword and semantic rankings the way the {@code vector} and
 * {@code hybrid} providers do: their default fusion unless {@code fusion} (with {@code rrf_k}, {@code keyword_weight})
 * says otherwise.
 */
class GraphFusionTest {

    private static final List<String> VALUES = List.of(
            "The deploy pipeline runs the integration tests before the release.",
            "Release notes are written by the team lead after each deploy.",
            "Integration tests need the staging database and a Neo4j server.",
            "The staging database is reset every night at two.",
            "Lunch on Fridays is pizza with the whole team.",
            "A release is tagged in git once the pipeline is green.",
            "Neo4j backups are copied to the archive bucket weekly.",
            "The team prefers small pull requests with one reviewer.");

    @TempDir
    Path directory;

    private MemoryProvider open(Map<String, Object> settings) {
        return GraphTestStores.open(directory, "fusion-" + UUID.randomUUID(), settings);
    }

    /** What the provider's HYBRID search must return: its own two rankings, fused by {@code method}. */
    private static List<Hit> expected(MemoryProvider provider, SearchRequest hybrid, FusionMethod method, int k, double weight) {
        List<Hit> keyword = provider.search(SearchRequest.builder(hybrid.text()).mode(SearchMode.KEYWORD).limit(100).build());
        List<Hit> semantic = provider.search(SearchRequest.builder(hybrid.text()).mode(SearchMode.SEMANTIC).limit(100).build());
        assertThat(keyword).isNotEmpty();
        assertThat(semantic).isNotEmpty();
        return SemanticScorer.fuse(hybrid, keyword, semantic, method, k, weight);
    }

    private static void fill(MemoryProvider provider) {
        for (int i = 0; i < VALUES.size(); i++) {
            provider.set("note-" + i, VALUES.get(i), Scope.PROJECT);
        }
    }

    @Test
    void hybrid_search_uses_the_default_fusion_by_default() {
        try (MemoryProvider provider = open(Map.of())) {
            fill(provider);
            SearchRequest hybrid = SearchRequest.builder("release pipeline tests").mode(SearchMode.HYBRID).limit(5).build();

            List<Hit> hits = provider.search(hybrid);

            assertThat(hits).isEqualTo(expected(provider, hybrid, FusionMethod.DEFAULT, 60, 1.0));
            assertThat(hits).isNotEqualTo(expected(provider, hybrid, FusionMethod.RRF, 60, 1.0));
        }
    }

    @Test
    void hybrid_search_fuses_as_configured() {
        try (MemoryProvider provider = open(Map.of("fusion", "rrf", "rrf_k", 5, "keyword_weight", 0.5))) {
            fill(provider);
            SearchRequest hybrid = SearchRequest.builder("staging database neo4j").mode(SearchMode.HYBRID).limit(4).build();

            assertThat(provider.search(hybrid)).isEqualTo(expected(provider, hybrid, FusionMethod.RRF, 5, 0.5));
        }
    }
}
