package dev.forge.memory.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The batched write path of an import: batches of any size leave the target as a key-by-key import does and report
 * the same counts, into an empty target and into one that holds some of the keys; progress moves by time as well as
 * by count.
 */
class ImportBatchTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-27T10:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;

    private MemoryProvider provider(String project) {
        return new InMemoryMemoryProvider(new InMemoryStore(true), ProviderContext.builder().projectId(project)
                .sessionId("s").baseDirectory(dir).clock(CLOCK).build());
    }

    /** An export of entries with histories in every scope, a deleted key and relations. */
    private Path export() {
        MemoryProvider source = provider("p");
        for (int i = 0; i < 400; i++) {
            Scope scope = Scope.values()[i % 3];
            source.set(String.format("k%04d", i), "first value " + i, scope);
            if (i % 5 == 0) {
                source.set(String.format("k%04d", i), "second value " + i, scope);
            }
        }
        source.delete("k0010", Scope.PROJECT);
        source.requireGraph().relate(EntryRef.of("k0001", Scope.PROJECT), EntryRef.of("k0004", Scope.PROJECT), "NEXT");
        Path file = dir.resolve("export.jsonl");
        Exporter.builder().format(TransferFormat.JSONL).clock(CLOCK).build().exportFile(source, file);
        return file;
    }

    private static String exported(MemoryProvider provider) {
        java.io.StringWriter out = new java.io.StringWriter();
        Exporter.builder().format(TransferFormat.JSONL).clock(CLOCK).build().export(provider, out);
        return out.toString();
    }

    /** What an import reports, without its duration. */
    private static List<Object> counts(ImportResult result) {
        return List.of(result.created(), result.overwritten(), result.unchanged(), result.skipped(),
                result.historyVersionsWritten(), result.relationsWritten(), result.lossless());
    }

    @Test
    void batches_of_any_size_import_what_one_key_at_a_time_imports() {
        Path file = export();
        List<String> stores = new ArrayList<>();
        List<List<Object>> reports = new ArrayList<>();
        for (int keys : List.of(1, 7, 1000)) {
            MemoryProvider target = provider("t");
            // Some keys are there already, one with the imported content, so the target is not empty.
            target.set("k0002", "held before the import", Scope.GLOBAL);
            target.set("k0399", "held before the import", Scope.SESSION);
            ImportResult first = Importer.builder().batch(keys, 1 << 20).build().importFile(file, target);
            ImportResult again = Importer.builder().batch(keys, 1 << 20).build().importFile(file, target);
            stores.add(exported(target));
            reports.add(List.of(counts(first), counts(again)));
        }
        for (long bytes : List.of(1L, 64L)) {
            MemoryProvider target = provider("t");
            target.set("k0002", "held before the import", Scope.GLOBAL);
            target.set("k0399", "held before the import", Scope.SESSION);
            ImportResult first = Importer.builder().batch(1000, bytes).build().importFile(file, target);
            ImportResult again = Importer.builder().batch(1000, bytes).build().importFile(file, target);
            stores.add(exported(target));
            reports.add(List.of(counts(first), counts(again)));
        }

        assertThat(stores).allSatisfy(store -> assertThat(store).isEqualTo(stores.get(0)));
        assertThat(reports).allSatisfy(report -> assertThat(report).isEqualTo(reports.get(0)));
        assertThat(reports.get(0).get(0)).isEqualTo(List.of(397L, 2L, 0L, 0L, 79L, 1L, true));
        assertThat(((List<?>) reports.get(0).get(1)).subList(0, 3)).isEqualTo(List.of(0L, 0L, 399L));
        assertThat(stores.get(0)).contains("\"k0010\"").contains("\"deleted\":true");
    }

    @Test
    void an_import_into_an_empty_target_matches_one_into_a_target_that_held_other_scopes() {
        Path file = export();
        MemoryProvider empty = provider("t");
        MemoryProvider holding = provider("t");
        holding.set("zz-other", "a key the input does not have", Scope.SESSION);

        ImportResult intoEmpty = Importer.builder().build().importFile(file, empty);
        ImportResult intoHolding = Importer.builder().build().importFile(file, holding);
        holding.delete("zz-other", Scope.SESSION);
        holding.requireHistory().purge("zz-other", Scope.SESSION);

        assertThat(counts(intoEmpty)).isEqualTo(counts(intoHolding));
        assertThat(exported(empty)).isEqualTo(exported(holding));
    }

    @Test
    void progress_is_reported_by_time_as_well_as_every_thousand_records() throws Exception {
        Path file = dir.resolve("small.jsonl");
        StringBuilder lines = new StringBuilder("{\"format\":\"forge-memory\",\"version\":\"1.0\"}\n");
        for (int i = 0; i < 40; i++) {
            lines.append("{\"kind\":\"entry\",\"key\":\"k").append(i).append("\",\"value\":\"v\",\"scope\":\"project\"}\n");
        }
        Files.writeString(file, lines);
        List<String> reports = new ArrayList<>();
        TransferProgress progress = (phase, done, total) -> reports.add(phase + " " + done + "/" + total);

        Importer.builder().progress(progress).build().importFile(file, provider("t"));
        assertThat(reports).as("only the start and the end of each phase: 40 records are under a second and a count")
                .doesNotContain("import 1/40", "check 1/-1");

        reports.clear();
        // An interval of zero stands for a slow backend: every record is a second late.
        Importer.builder().progress(progress).progressInterval(Duration.ZERO).build().importFile(file, provider("t"));
        assertThat(reports).contains("check 1/-1", "check 2/-1", "check 40/40", "import 0/40", "import 1/40",
                "import 2/40", "import 39/40", "import 40/40");
        assertThat(Set.copyOf(reports)).hasSizeGreaterThanOrEqualTo(80);
    }
}
