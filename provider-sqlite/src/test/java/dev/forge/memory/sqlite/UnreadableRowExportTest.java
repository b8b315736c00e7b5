package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.transfer.ExportResult;
import dev.forge.memory.transfer.Exporter;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import dev.forge.memory.transfer.TransferFileException;
import dev.forge.memory.transfer.TransferFormat;
import dev.forge.memory.transfer.TransferProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export or migration of a store holding rows that cannot be read writes every readable entry, whatever the page
 * size, and says what it left out: the keys (read through the provider's pages) or the doctor's problems (read through
 * {@code query}, as for a provider wrapping this one); it is never called lossless then.
 */
class UnreadableRowExportTest {

    @TempDir
    Path directory;

    @Test
    void an_export_writes_every_readable_entry_and_names_each_unreadable_key() throws Exception {
        try (SqliteMemoryProvider provider = filled()) {
            for (int pageSize : List.of(1, 3, 2000)) {
                Path file = directory.resolve("export-" + pageSize + ".jsonl");
                ExportResult result = Exporter.builder().format(TransferFormat.JSONL).pageSize(pageSize).build()
                        .exportFile(provider, file);

                assertThat(result.totalEntries()).as("page size %d", pageSize).isEqualTo(8);
                assertThat(Files.readAllLines(file)).as("page size %d", pageSize).hasSize(9);
                assertThat(result.unreadableCount()).isEqualTo(2);
                assertThat(result.unreadable()).extracting(TransferProblem::location)
                        .containsExactly("entry project:k1", "entry project:k5");
                assertThat(result.unreadable()).allSatisfy(problem -> assertThat(problem.message()).contains("cannot be read"));
                assertThat(result.lossless()).isFalse();
                assertThat(result.losses()).singleElement().asString().contains("2 stored entries that cannot be read");
            }
        }
    }

    @Test
    void an_export_through_query_pages_writes_every_readable_entry_and_reports_the_doctor() throws Exception {
        try (SqliteMemoryProvider provider = filled()) {
            Path file = directory.resolve("export.jsonl");
            ExportResult result = Exporter.builder().format(TransferFormat.JSONL).pageSize(3).build()
                    .exportFile(new QueryOnly(provider), file);

            assertThat(result.totalEntries()).isEqualTo(8);
            assertThat(Files.readAllLines(file)).hasSize(9);
            assertThat(result.sourceProblems()).hasSize(2)
                    .allSatisfy(problem -> assertThat(problem.problem()).contains("cannot be read"));
            assertThat(result.lossless()).isFalse();
        }
    }

    @Test
    void an_export_of_a_healthy_store_is_lossless() {
        try (SqliteMemoryProvider provider = Stores.open(directory)) {
            provider.set("fine", "value", Scope.PROJECT);
            ExportResult result = Exporter.builder().build().exportFile(provider, directory.resolve("export.json"));
            assertThat(result.lossless()).isTrue();
            assertThat(result.losses()).isEmpty();
        }
    }

    @Test
    void a_migration_names_the_unreadable_keys_and_copies_the_rest_only_when_told_to_skip_them() throws Exception {
        try (SqliteMemoryProvider source = filled();
             SqliteMemoryProvider target = Stores.open(directory.resolve("target"))) {
            assertThatThrownBy(() -> Importer.builder().pageSize(3).build().migrate(source, Set.of(), target))
                    .isInstanceOf(TransferFileException.class)
                    .hasMessageContaining("2 invalid record(s)").hasMessageContaining("entry project:k1")
                    .hasMessageContaining("--skip-invalid");
            assertThat(target.query(Query.builder().build())).isEmpty();

            ImportResult result = Importer.builder().pageSize(3).skipInvalid(true).build().migrate(source, Set.of(), target);

            assertThat(result.created()).isEqualTo(8);
            assertThat(result.invalid()).extracting(TransferProblem::location)
                    .containsExactly("entry project:k1", "entry project:k5");
            assertThat(result.lossless()).isFalse();
            assertThat(target.query(Query.builder().build())).extracting(MemoryEntry::key)
                    .containsExactly("k0", "k2", "k3", "k4", "k6", "k7", "k8", "k9");
        }
    }

    /** A store of ten keys, two of them damaged. */
    private SqliteMemoryProvider filled() throws Exception {
        SqliteMemoryProvider provider = Stores.open(directory);
        for (int i = 0; i < 10; i++) {
            provider.set("k" + i, "value " + i, Scope.PROJECT);
        }
        UnreadableRowPagingTest.damage(provider, "k1", "k5");
        return provider;
    }
}
