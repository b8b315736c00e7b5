package dev.forge.memory.markdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Direction;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.transfer.Exporter;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import dev.forge.memory.transfer.TransferFormat;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 000's typed edge ({@code related: [{id, relationship: refines}]}, the {@code 000-chain} fixture) carried by
 * export and import into a fresh store, and by migration: the relation keeps the time it has in the source, and the
 * import says lossless only because nothing was changed.
 */
class Seed000RelationTransferTest {

    @TempDir
    Path base;

    @Test
    void the_refines_edge_keeps_its_time_through_export_and_import_and_through_migration() throws Exception {
        SeedFilesTest.placeSeed000Chain(base.resolve("source"));
        try (MarkdownMemoryProvider source = Stores.open(base.resolve("source"));
             MarkdownMemoryProvider imported = Stores.open(base.resolve("imported"));
             MarkdownMemoryProvider migrated = Stores.open(base.resolve("migrated"))) {
            List<Relation> edges = relations(source);
            assertThat(edges).singleElement().satisfies(edge -> assertThat(edge.type()).isEqualTo("refines"));
            Path file = base.resolve("export.jsonl");
            Exporter.builder().format(TransferFormat.JSONL).build().exportFile(source, file);

            ImportResult byFile = Importer.builder().build().importFile(file, imported);
            ImportResult byMigration = Importer.builder().build().migrate(source, Set.of(), migrated);

            for (ImportResult result : List.of(byFile, byMigration)) {
                assertThat(result.relationsWritten()).isEqualTo(1);
                assertThat(result.relationTimesNotKept()).isZero();
                assertThat(result.lossless()).as("%s", result.losses()).isTrue();
            }
            assertThat(relations(imported)).isEqualTo(edges);
            assertThat(relations(migrated)).isEqualTo(edges);
        }
        try (MarkdownMemoryProvider reopened = Stores.open(base.resolve("imported"))) {
            assertThat(relations(reopened)).singleElement().satisfies(edge -> assertThat(edge.type()).isEqualTo("refines"));
        }
    }

    /** Every outgoing relation of the project scope, in key order. */
    private static List<Relation> relations(MarkdownMemoryProvider provider) {
        List<Relation> all = new ArrayList<>();
        for (MemoryEntry entry : provider.query(Query.builder().scopes(Scope.PROJECT).build())) {
            all.addAll(provider.requireGraph().relations(entry.ref(), Direction.OUTGOING));
        }
        return all;
    }
}
