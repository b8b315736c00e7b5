package dev.forge.memory.hybrid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Scope;
import dev.forge.memory.conformance.EmbeddingService;
import dev.forge.memory.conformance.OwnerOnlyFiles;
import dev.forge.memory.conformance.Reliability;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Everything a hybrid router and its children create is owner-only (files 0600, directories 0700) whatever the umask:
 * the sqlite storage and relations databases, the vector index, and the outbox, which holds the values of writes the
 * search child has not yet taken (it is down here).
 */
@Tag(Reliability.TAG)
class HybridPermissionsTest {

    @TempDir
    Path directory;

    @Test
    void the_children_stores_and_the_outbox_are_private_to_their_owner() throws Exception {
        Assumptions.assumeTrue(OwnerOnlyFiles.posix(directory), "POSIX permissions only");
        EmbeddingService service = new EmbeddingService();
        try {
            service.stop();
            ProviderContext context = ProviderContext.builder().projectId("p").sessionId("s").baseDirectory(directory)
                    .forgeHome(directory.resolve("forge-home")).build();
            Map<String, Object> config = HybridStores.config(Map.of("provider", "sqlite"),
                    Map.of("provider", "vector", "embedding", service.embedding()),
                    Map.of("provider", "sqlite", "path", ".forge/relations.db"), Map.of("outbox", Map.of("retry_interval", "0")));
            try (HybridMemoryProvider router = HybridStores.open(context, config)) {
                router.set("a", "written while the search child was down", Scope.PROJECT);
                assertThat(router.pendingUpdates()).isEqualTo(1);
                assertThat(Files.size(directory.resolve(".forge/outbox/outbox.jsonl"))).isPositive();
                assertThat(OwnerOnlyFiles.exposed(directory)).as("while open").isEmpty();
            }
            assertThat(OwnerOnlyFiles.exposed(directory)).as("after close").isEmpty();
        } finally {
            service.close();
        }
    }
}
