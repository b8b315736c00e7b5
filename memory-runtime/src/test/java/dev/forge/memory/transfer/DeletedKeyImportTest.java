package dev.forge.memory.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.ProviderContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A deleted key's history in a file ({@code "deleted": true}): kept as deleted by a target with tombstones, counted as
 * not kept (and the import not lossless) by a target without.
 */
class DeletedKeyImportTest {

    private static final String FILE = String.join("\n",
            "{\"format\":\"forge-memory\",\"version\":\"1.0\"}",
            "{\"kind\":\"entry\",\"key\":\"gone\",\"value\":\"second\",\"scope\":\"project\",\"tags\":[],\"metadata\":{},"
                    + "\"created_at\":\"2025-01-01T00:00:00.000Z\",\"updated_at\":\"2025-01-02T00:00:00.000Z\",\"version\":2,"
                    + "\"history\":[{\"value\":\"first\",\"tags\":[],\"metadata\":{},\"created_at\":\"2025-01-01T00:00:00.000Z\","
                    + "\"updated_at\":\"2025-01-01T00:00:00.000Z\",\"version\":1}],\"deleted\":true}",
            "{\"kind\":\"entry\",\"key\":\"live\",\"value\":\"here\",\"scope\":\"project\",\"tags\":[],\"metadata\":{},"
                    + "\"created_at\":\"2025-01-01T00:00:00.000Z\",\"updated_at\":\"2025-01-01T00:00:00.000Z\",\"version\":1}");

    @TempDir
    Path dir;

    private MemoryProvider open(boolean tombstones) {
        return new InMemoryMemoryProvider(new InMemoryStore(tombstones), ProviderContext.builder().projectId("p")
                .sessionId("s").baseDirectory(dir).build());
    }

    @Test
    void a_target_with_tombstones_keeps_the_deleted_keys_versions_and_a_second_import_changes_nothing() throws IOException {
        Path file = Files.writeString(dir.resolve("export.jsonl"), FILE);
        MemoryProvider target = open(true);

        ImportResult result = Importer.builder().build().importFile(file, target);

        assertThat(result.deletedKeysKept()).isEqualTo(1);
        assertThat(result.created()).isEqualTo(1);
        assertThat(result.lossless()).isTrue();
        assertThat(target.get("gone", Scope.PROJECT)).isEmpty();
        assertThat(target.requireHistory().versions("gone", Scope.PROJECT)).extracting(MemoryEntry::value)
                .containsExactly("first", "second");
        assertThat(target.set("gone", "again", Scope.PROJECT).version()).as("numbered after the tombstone").isEqualTo(4);
    }

    @Test
    void a_target_without_tombstones_counts_the_deleted_key_as_not_kept() throws IOException {
        Path file = Files.writeString(dir.resolve("export.jsonl"), FILE);
        MemoryProvider target = open(false);

        ImportResult result = Importer.builder().build().importFile(file, target);

        assertThat(result.deletedKeysDropped()).isEqualTo(1);
        assertThat(result.lossless()).isFalse();
        assertThat(result.losses()).anySatisfy(loss -> assertThat(loss).contains("1 deleted key(s)"));
        assertThat(target.get("gone", Scope.PROJECT)).isEmpty();
        assertThat(target.requireHistory().versions("gone", Scope.PROJECT)).isEmpty();
    }
}
