package dev.forge.memory.hybrid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a router's children keep GLOBAL: the storage child in the user's own GLOBAL store (the one a plain provider of
 * its kind shares with every project), a search child's copies under {@code <forge home>/hybrid/<storage>/search}, so
 * that two markdown children (storage and search, on two project paths) never write their GLOBAL files into one
 * directory, and a router of another project directory finds the copies its search child needs.
 */
class HybridGlobalCopiesTest {

    @TempDir
    Path directory;

    private ProviderContext context(String project, Path base) {
        return ProviderContext.builder().projectId(project).sessionId("s").baseDirectory(base)
                .forgeHome(directory.resolve("forge-home")).registry(ProviderRegistry.load()).build();
    }

    private static Map<String, Object> config() {
        return HybridStores.config(Map.of("provider", "markdown", "path", ".forge/memory"),
                Map.of("provider", "markdown", "path", ".forge/search"), null, Map.of());
    }

    private static long markdownFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".md")).count();
        }
    }

    @Test
    void the_storage_keeps_global_in_the_users_store_and_the_search_child_its_copies_beside_it() throws IOException {
        Path home = directory.resolve("forge-home");
        try (MemoryProvider router = HybridStores.provider(context("a", directory.resolve("a")), config())) {
            router.set("learning:async", "Always use aiofiles for async file operations.", Scope.GLOBAL);
        }
        assertThat(markdownFiles(home.resolve("memory"))).isEqualTo(1);
        assertThat(markdownFiles(home.resolve("hybrid/markdown/search/memory"))).isEqualTo(1);
        // a plain markdown store of any project reads the storage's GLOBAL entry, once
        try (MemoryProvider plain = context("c", directory.resolve("c")).open("markdown",
                ProviderConfig.of(Map.of(), "test.yaml", "memory.config"))) {
            assertThat(plain.get("learning:async", Scope.GLOBAL)).isPresent();
        }
    }

    @Test
    void a_router_of_another_project_finds_global_through_its_search_child() throws IOException {
        try (MemoryProvider router = HybridStores.provider(context("a", directory.resolve("a")), config())) {
            router.set("learning:async", "Always use aiofiles for async file operations.", Scope.GLOBAL);
        }
        try (MemoryProvider other = HybridStores.provider(context("b", directory.resolve("b")), config())) {
            assertThat(other.search(SearchRequest.builder("aiofiles").mode(SearchMode.KEYWORD).scopes(Scope.GLOBAL)
                    .build())).extracting(h -> h.entry().key()).containsExactly("learning:async");
        }
    }
}
