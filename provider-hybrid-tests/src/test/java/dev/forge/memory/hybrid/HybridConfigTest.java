package dev.forge.memory.hybrid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.Capability;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.UnknownProviderException;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Config binding, child discovery, computed capabilities and the shared cache. */
class HybridConfigTest {

    @TempDir
    Path directory;

    private ProviderContext context(String project) {
        return ProviderContext.builder().projectId(project).sessionId("s").baseDirectory(directory)
                .forgeHome(directory.resolve("forge-home")).build();
    }

    private HybridMemoryProvider open(Map<String, Object> config) {
        return HybridStores.open(context("p"), config);
    }

    @Test
    void the_storage_block_is_required() {
        assertThatThrownBy(() -> open(Map.of("search", HybridStores.vector())))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("'storage' block");
    }

    @Test
    void a_child_must_name_its_provider() {
        assertThatThrownBy(() -> open(Map.of("storage", Map.of("path", "x.db"))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("'storage' must name its provider");
    }

    @Test
    void an_unknown_key_is_rejected_with_the_known_ones() {
        assertThatThrownBy(() -> open(Map.of("storage", Map.of("provider", "file"), "serach", HybridStores.vector())))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("unknown key 'memory.config.serach'")
                .hasMessageContaining("Did you mean 'search'")
                .hasMessageContaining("relationships");
    }

    @Test
    void an_unknown_child_key_is_rejected_by_the_child_with_its_path() {
        assertThatThrownBy(() -> open(Map.of("storage", Map.of("provider", "sqlite", "pth", "x.db"))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("memory.config.storage.pth");
    }

    @Test
    void an_unknown_child_provider_lists_the_providers_found() {
        assertThatThrownBy(() -> open(Map.of("storage", Map.of("provider", "sqlit"))))
                .isInstanceOf(UnknownProviderException.class)
                .hasMessageContaining("sqlit").hasMessageContaining("sqlite").hasMessageContaining("markdown");
    }

    @Test
    void a_relationships_child_without_a_graph_is_refused_and_nothing_stays_open() {
        assertThatThrownBy(() -> open(Map.of("storage", Map.of("provider", "sqlite"),
                "relationships", HybridStores.vector())))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("relationships provider 'vector' has no graph");
        // the sqlite child was closed: another router opens the same store
        try (MemoryProvider again = open(Map.of("storage", Map.of("provider", "sqlite")))) {
            again.set("k", "v", Scope.PROJECT);
        }
    }

    @Test
    void bad_cache_and_fusion_values_are_refused() {
        assertThatThrownBy(() -> open(Map.of("storage", Map.of("provider", "file"), "cache", Map.of("max_entries", -1))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("max_entries");
        assertThatThrownBy(() -> open(Map.of("storage", Map.of("provider", "file"), "cache", Map.of("ttl", "soon"))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("ttl");
        assertThatThrownBy(() -> open(Map.of("storage", Map.of("provider", "file"), "fusion", Map.of("keyword_weight", 2))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("keyword_weight");
    }

    @Test
    void the_seeds_cache_block_is_an_hour_of_the_in_process_cache() {
        // seed 004: cache: {provider: file, ttl: 3600}; a plain number is seconds
        HybridConfig config = ProviderConfig.of(Map.of("storage", Map.of("provider", "file"),
                "cache", Map.of("provider", "file", "ttl", 3600))).bind(HybridConfig.class);
        assertThat(config.cache().ttl().duration()).isEqualTo(Duration.ofHours(1));
        assertThat(config.cache().provider()).isEqualTo("file");
        assertThat(config.cache().enabled()).isTrue();
        try (HybridMemoryProvider router = open(Map.of("storage", Map.of("provider", "file"),
                "cache", Map.of("provider", "file", "ttl", 3600)))) {
            router.set("k", "v", Scope.PROJECT, java.util.List.of(), Map.of());
            assertThat(router.get("k", Scope.PROJECT)).map(e -> e.value()).contains("v");
        }
    }

    @Test
    void a_cache_provider_other_than_the_in_process_cache_is_refused_with_what_to_do() {
        assertThatThrownBy(() -> open(Map.of("storage", Map.of("provider", "file"), "cache", Map.of("provider", "redis"))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("cache.provider")
                .hasMessageContaining("in-memory").hasMessageContaining("storage");
        assertThat(ProviderConfig.of(Map.of("storage", Map.of("provider", "file"), "cache", Map.of("provider", "In-Memory")))
                .bind(HybridConfig.class).cache().provider()).isEqualTo("in-memory");
    }

    @Test
    void capabilities_are_those_the_children_really_have() {
        try (HybridMemoryProvider fileOnly = open(Map.of("storage", Map.of("provider", "file")))) {
            assertThat(fileOnly.capabilities()).isEqualTo(EnumSet.copyOf(fileOnly.storage().capabilities()));
            assertThat(fileOnly.capabilities()).doesNotContain(Capability.SEMANTIC_SEARCH, Capability.REINDEX);
        }
        try (HybridMemoryProvider sqliteVector = open(Map.of("storage", Map.of("provider", "sqlite"),
                "search", HybridStores.vector()))) {
            assertThat(sqliteVector.capabilities()).contains(Capability.KEYWORD_SEARCH, Capability.SEMANTIC_SEARCH,
                    Capability.GRAPH, Capability.TRANSACTIONS, Capability.HISTORY, Capability.TOMBSTONES, Capability.REINDEX);
        }
        try (HybridMemoryProvider markdownSqlite = open(Map.of("storage", Map.of("provider", "markdown"),
                "search", Map.of("provider", "sqlite")))) {
            assertThat(markdownSqlite.capabilities()).contains(Capability.KEYWORD_SEARCH, Capability.HISTORY,
                    Capability.TOMBSTONES, Capability.GRAPH);
            assertThat(markdownSqlite.capabilities()).doesNotContain(Capability.SEMANTIC_SEARCH, Capability.TRANSACTIONS);
        }
    }

    @Test
    void limits_are_the_strictest_of_the_children() {
        try (HybridMemoryProvider router = open(Map.of("storage", Map.of("provider", "file", "max_file_size", "64KB"),
                "search", Map.of("provider", "sqlite")))) {
            Limits limits = router.limits();
            assertThat(limits.maxValueBytes()).isEqualTo(64 * 1024);
        }
    }

    @Test
    void routers_of_one_jvm_on_one_storage_share_the_cache() {
        Map<String, Object> config = Map.of("storage", Map.of("provider", "file"));
        try (HybridMemoryProvider a = HybridStores.open(context("p"), config);
             HybridMemoryProvider b = HybridStores.open(context("p"), config)) {
            a.set("shared", "one", Scope.PROJECT);
            assertThat(b.get("shared", Scope.PROJECT)).get().extracting(e -> e.value()).isEqualTo("one");
            b.set("shared", "two", Scope.PROJECT);
            assertThat(a.get("shared", Scope.PROJECT)).get().extracting(e -> e.value()).isEqualTo("two");
            b.delete("shared", Scope.PROJECT);
            assertThat(a.get("shared", Scope.PROJECT)).isEmpty();
        }
    }

    @Test
    void no_outbox_directory_without_secondary_children() {
        try (HybridMemoryProvider router = open(Map.of("storage", Map.of("provider", "sqlite")))) {
            router.set("k", "v", Scope.PROJECT);
        }
        assertThat(Files.exists(directory.resolve(".forge/outbox"))).isFalse();
    }
}
