package dev.forge.memory.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.ProviderContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 004's export file ("Migration Between Providers"), verbatim from {@code src/test/resources/seeds/}, imported as
 * the seed's {@code import_memory} would: every entry in its scope, its {@code timestamp} kept, and what the file does
 * not say defaulted and counted.
 */
class SeedExportImportTest {

    private static final Instant EXPORTED = Instant.ofEpochSecond(1732700060);

    @TempDir
    Path dir;

    private MemoryProvider target;

    @BeforeEach
    void open() {
        target = new InMemoryMemoryProvider(new InMemoryStore(), ProviderContext.builder().projectId("p").sessionId("s")
                .baseDirectory(dir).build());
    }

    /** Copies a fixture under a name that says nothing of its format: the content decides. */
    private Path fixture(String name) throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/seeds/" + name)) {
            assertThat(in).as("fixture %s", name).isNotNull();
            Path file = dir.resolve("memory-backup");
            Files.copy(in, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return file;
        }
    }

    private void assertSeedEntries() {
        MemoryEntry decision = target.get("decision:auth-strategy", Scope.PROJECT).orElseThrow();
        assertThat(decision.value()).isEqualTo("Using JWT with refresh tokens because...");
        assertThat(decision.tags()).containsExactly("decision", "authentication");
        assertThat(decision.updatedAt()).isEqualTo(Instant.ofEpochSecond(1732700010));
        assertThat(decision.createdAt()).isEqualTo(decision.updatedAt());
        assertThat(decision.version()).isEqualTo(1);
        assertThat(target.query(Query.of("decision:*", Scope.PROJECT))).extracting(MemoryEntry::key)
                .containsExactlyInAnyOrder("decision:auth-strategy", "decision:auth");
        MemoryEntry learning = target.get("learning:async-file-io", Scope.GLOBAL).orElseThrow();
        assertThat(learning.value()).isEqualTo("Always use aiofiles for async file operations. Regular open() blocks.");
        assertThat(learning.tags()).containsExactly("python", "async", "io");
        assertThat(target.get("learning:file-operations", Scope.GLOBAL).orElseThrow().metadata())
                .isEqualTo(Map.of("context", "reviewing the FileProvider"));
        assertThat(target.get("current_task", Scope.SESSION).orElseThrow().value()).isEqualTo("Implementing user authentication");
        assertThat(target.query(Query.builder().build())).hasSize(6);
    }

    @Test
    void the_seeds_export_file_is_imported_with_its_timestamps_whatever_its_name() throws IOException {
        ImportResult result = Importer.builder().build().importFile(fixture("seed-004-export.json"), target);

        assertThat(result.created()).isEqualTo(6);
        assertSeedEntries();
        // The seed's single timestamp is the last write: it becomes updated_at; created_at and version are assumed.
        assertThat(result.defaulted()).isEqualTo(Map.of("created_at", 6L, "version", 6L));
        assertThat(result.lossless()).isTrue();
    }

    @Test
    void scopes_written_as_python_enum_names_are_read_too() throws IOException {
        ImportResult result = Importer.builder().build().importFile(fixture("seed-004-export-enum-str.json"), target);

        assertThat(result.created()).isEqualTo(6);
        assertSeedEntries();
    }

    @Test
    void importing_the_seeds_file_twice_changes_nothing_the_second_time() throws IOException {
        Path file = fixture("seed-004-export.json");
        Importer.builder().build().importFile(file, target);

        ImportResult again = Importer.builder().build().importFile(file, target);

        assertThat(again.unchanged()).isEqualTo(6);
        assertThat(again.created() + again.overwritten()).isZero();
    }

    @Test
    void a_record_with_only_key_and_value_gets_the_files_time_version_1_and_the_defaults_are_counted() throws IOException {
        ImportResult result = Importer.builder().build().importFile(fixture("seed-004-minimal.json"), target);

        MemoryEntry entry = target.get("decision:auth-strategy", Scope.PROJECT).orElseThrow();
        assertThat(entry.createdAt()).isEqualTo(EXPORTED);
        assertThat(entry.updatedAt()).isEqualTo(EXPORTED);
        assertThat(entry.version()).isEqualTo(1);
        assertThat(entry.tags()).isEmpty();
        assertThat(entry.metadata()).isEmpty();
        assertThat(result.defaulted()).isEqualTo(Map.of("created_at", 1L, "updated_at", 1L, "version", 1L, "tags", 1L,
                "metadata", 1L));
    }

    @Test
    void without_any_time_in_the_file_the_import_time_is_used() throws IOException {
        Instant now = Instant.parse("2026-11-27T04:00:00Z");
        Path file = Files.writeString(dir.resolve("hand-written"),
                "{\"version\": \"1.0\", \"scopes\": {\"global\": [{\"key\": \"style\", \"value\": \"Short answers.\"}]}}");

        ImportResult result = Importer.builder().clock(Clock.fixed(now, ZoneOffset.UTC)).build().importFile(file, target);

        MemoryEntry entry = target.get("style", Scope.GLOBAL).orElseThrow();
        assertThat(entry.createdAt()).isEqualTo(now);
        assertThat(entry.updatedAt()).isEqualTo(now);
        assertThat(result.defaulted()).containsEntry("updated_at", 1L);
    }

    @Test
    void a_forge_memory_record_without_times_and_version_is_defaulted_the_same_way() throws IOException {
        Instant now = Instant.parse("2026-11-27T04:00:00Z");
        Path file = Files.writeString(dir.resolve("lines.json"), String.join("\n",
                "{\"format\":\"forge-memory\",\"version\":\"1.0\"}",
                "{\"kind\":\"entry\",\"key\":\"a\",\"value\":\"alpha\",\"scope\":\"project\"}",
                "{\"kind\":\"entry\",\"key\":\"b\",\"value\":\"beta\",\"scope\":\"project\",\"created_at\":\"2025-01-01T00:00:00Z\"}"));

        ImportResult result = Importer.builder().clock(Clock.fixed(now, ZoneOffset.UTC)).build().importFile(file, target);

        assertThat(result.created()).isEqualTo(2);
        assertThat(target.get("a", Scope.PROJECT).orElseThrow().updatedAt()).isEqualTo(now);
        MemoryEntry b = target.get("b", Scope.PROJECT).orElseThrow();
        assertThat(b.createdAt()).isEqualTo(Instant.parse("2025-01-01T00:00:00Z"));
        assertThat(b.updatedAt()).isEqualTo(b.createdAt());
        assertThat(result.defaulted()).isEqualTo(Map.of("created_at", 1L, "updated_at", 2L, "version", 2L, "tags", 2L,
                "metadata", 2L));
    }

    @Test
    void a_seed_record_whose_scope_disagrees_with_its_list_is_refused_by_name() throws IOException {
        Path file = Files.writeString(dir.resolve("bad"), "{\"version\": \"1.0\", \"timestamp\": 1732700060, \"scopes\": "
                + "{\"project\": [{\"key\": \"k\", \"value\": \"v\", \"scope\": \"Scope.GLOBAL\", \"timestamp\": 1}]}}");

        assertThatThrownBy(() -> Importer.builder().build().importFile(file, target))
                .isInstanceOf(TransferFileException.class).hasMessageContaining("global")
                .hasMessageContaining("Nothing was imported");
        assertThat(target.query(Query.builder().build())).isEmpty();
    }

    @Test
    void a_document_with_neither_format_nor_scopes_is_still_refused_as_not_an_export() throws IOException {
        Path file = Files.writeString(dir.resolve("other.json"), "{\"version\": \"1.0\", \"items\": []}");

        assertThatThrownBy(() -> Importer.builder().build().importFile(file, target))
                .isInstanceOf(TransferFileException.class).hasMessageContaining("items");
    }
}
