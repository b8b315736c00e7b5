package dev.forge.memory.hybrid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.conformance.EmbeddingService;
import dev.forge.memory.spi.ProviderContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The outbox after crashes and config changes: a torn last line, records of a child the config no longer has. */
class OutboxRecoveryTest {

    @TempDir
    Path directory;

    private EmbeddingService service;

    @BeforeEach
    void start() throws Exception {
        service = new EmbeddingService();
    }

    @AfterEach
    void stop() {
        service.close();
    }

    private HybridMemoryProvider open(boolean withSearch) {
        ProviderContext context = ProviderContext.builder().projectId("p").sessionId("s").baseDirectory(directory)
                .forgeHome(directory.resolve("forge-home")).build();
        Map<String, Object> search = withSearch ? Map.of("provider", "vector", "embedding", service.embedding()) : null;
        return HybridStores.open(context, HybridStores.config(Map.of("provider", "sqlite"), search,
                Map.of("provider", "sqlite", "path", ".forge/relations.db"), Map.of("outbox", Map.of("retry_interval", "0"))));
    }

    private Path outboxFile() {
        return directory.resolve(".forge/outbox/outbox.jsonl");
    }

    @Test
    void a_torn_last_line_loses_only_itself_and_later_records_stay_readable() throws Exception {
        service.stop();
        try (HybridMemoryProvider router = open(true)) {
            router.set("a", "written while the search child was down", Scope.PROJECT);
            router.set("b", "also written while it was down", Scope.PROJECT);
            assertThat(router.pendingUpdates()).isEqualTo(2);
        }
        // a crash in the middle of an append, torn inside a two-byte character
        byte[] torn = "{\"id\":\"x\",\"target\":\"t\",\"key\":\"caf\u00e9".getBytes(StandardCharsets.UTF_8);
        Files.write(outboxFile(), java.util.Arrays.copyOf(torn, torn.length - 1), StandardOpenOption.APPEND);
        try (HybridMemoryProvider router = open(true)) {
            assertThat(router.pendingUpdates()).isEqualTo(2);
            router.set("c", "written after the crash", Scope.PROJECT);
            assertThat(router.pendingUpdates()).isEqualTo(3);
            service.start();
            assertThat(router.replayOutbox()).isZero();
            assertThat(router.searchProvider().orElseThrow().get("c", Scope.PROJECT)).isPresent();
            assertThat(router.searchProvider().orElseThrow().get("a", Scope.PROJECT)).isPresent();
        }
        assertThat(Files.readString(outboxFile())).isEmpty();
    }

    @Test
    void records_of_a_child_the_config_no_longer_has_are_left_alone_and_reported() throws Exception {
        service.stop();
        try (HybridMemoryProvider router = open(true)) {
            router.set("a", "written while the search child was down", Scope.PROJECT);
        }
        try (HybridMemoryProvider router = open(false)) {
            router.set("b", "written by a router without a search child", Scope.PROJECT);
            assertThat(router.get("b", Scope.PROJECT)).isPresent();
            assertThat(router.pendingUpdates()).isZero();
            assertThat(router.doctor()).extracting(StoreProblem::problem).anyMatch(p -> p.contains("'a'"));
        }
        service.start();
        try (HybridMemoryProvider router = open(true)) {
            assertThat(router.pendingUpdates()).isZero();
            assertThat(router.searchProvider().orElseThrow().get("a", Scope.PROJECT)).isPresent();
        }
    }

    @Test
    void a_child_on_the_storages_own_store_is_refused() {
        ProviderContext context = ProviderContext.builder().projectId("p").sessionId("s").baseDirectory(directory)
                .forgeHome(directory.resolve("forge-home")).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> HybridStores.open(context, HybridStores.config(
                Map.of("provider", "sqlite"), null, Map.of("provider", "sqlite"), Map.of())))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("same provider and settings as 'storage'");
    }
}
