package dev.forge.memory.markdown;

import static dev.forge.memory.markdown.Stores.fileOf;
import static dev.forge.memory.markdown.Stores.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.transfer.Exporter;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chains edited by hand that {@code doctor} finds healthy also export, import and migrate: the order by
 * {@code supersedes} is the truth, so versions that do not rise are numbered 1 to n along it and a time that goes
 * back shows as the previous one, while the files stay as written.
 */
class HandEditedChainTransferTest {

    @TempDir
    Path source;

    @TempDir
    Path target;

    /** Version 2 renumbered 1 by hand, and version 3 dated a year before the others. */
    private static void editByHand(Path directory) {
        Path v2 = fileOf(directory, "k", 2);
        Path v3 = fileOf(directory, "k", 3);
        Stores.saveByRename(v2, read(v2).replace("\nversion: 2\n", "\nversion: 1\n"));
        String third = read(v3);
        Stores.saveByRename(v3, third.replaceFirst("\nupdated_at: [^\n]+\n", "\nupdated_at: 2001-01-01T00:00:00Z\n"));
    }

    @Test
    void a_chain_renumbered_and_dated_back_by_hand_is_healthy_and_reads_in_chain_order() {
        try (MarkdownMemoryProvider provider = Stores.open(source)) {
            VersionChainTest.writeThreeVersions(provider);
            editByHand(provider.projectDirectory());
            provider.refresh();
            List<MemoryEntry> versions = provider.requireHistory().versions("k", Scope.PROJECT);
            assertThat(versions).extracting(MemoryEntry::value).containsExactly("first", "second", "third");
            assertThat(versions).extracting(MemoryEntry::version).containsExactly(1L, 2L, 3L);
            assertThat(versions.get(2).updatedAt()).isEqualTo(versions.get(1).updatedAt());
            assertThat(provider.get("k", Scope.PROJECT)).contains(versions.get(2));
            assertThat(provider.doctor()).isEmpty();
            // The next version continues the numbers the history shows.
            assertThat(provider.set("k", "fourth", Scope.PROJECT).version()).isEqualTo(4);
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).extracting(MemoryEntry::version)
                    .containsExactly(1L, 2L, 3L, 4L);
        }
    }

    @Test
    void such_a_chain_exports_and_imports_into_another_provider_with_its_whole_history() throws IOException {
        Path file = source.resolve("export.json");
        try (MarkdownMemoryProvider provider = Stores.open(source)) {
            VersionChainTest.writeThreeVersions(provider);
            editByHand(provider.projectDirectory());
            provider.refresh();
            try (OutputStream out = Files.newOutputStream(file)) {
                Exporter.builder().build().export(provider, out);
            }
        }
        try (MarkdownMemoryProvider provider = Stores.open(target)) {
            ImportResult result = Importer.builder().build().importFile(file, provider);
            assertThat(result.lossless()).as("%s", result.losses()).isTrue();
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT))
                    .extracting(MemoryEntry::value, MemoryEntry::version)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("first", 1L),
                            org.assertj.core.groups.Tuple.tuple("second", 2L),
                            org.assertj.core.groups.Tuple.tuple("third", 3L));
        }
    }

    @Test
    void the_seed_003_chain_migrates_with_both_versions_and_their_times() {
        Path directory = Stores.projectDirectory(source);
        SeedFilesTest.copySeed("003-chain/mem_1H8Z7j3fR9x....md", directory.resolve("mem_1H8Z7j3fR9x....md"));
        SeedFilesTest.copySeed("003-chain/mem_1H8Z9Qk2sT4v.md", directory.resolve("mem_1H8Z9Qk2sT4v.md"));
        SeedFilesTest.placeSeed000Chain(source);
        try (MarkdownMemoryProvider from = Stores.open(source); MarkdownMemoryProvider to = Stores.open(target)) {
            ImportResult result = Importer.builder().build().migrate(from, Set.of(Scope.PROJECT), to);
            // Seed 003's example names a predecessor it does not include: doctor reports it, so the migration cannot
            // vouch for what it may have held.
            assertThat(result.sourceProblems()).isEqualTo(from.doctor().size()).isPositive();
            assertThat(result.lossless()).isFalse();
            assertThat(result.historyVersionsDropped() + result.relationsDropped() + result.invalidCount()).isZero();
            List<MemoryEntry> versions = to.requireHistory().versions("mem_1H8Z7j3fR9x...", Scope.PROJECT);
            assertThat(versions).extracting(MemoryEntry::version).containsExactly(1L, 2L);
            assertThat(versions).extracting(MemoryEntry::updatedAt).containsExactly(
                    Instant.parse("2024-05-20T12:00:00Z"), Instant.parse("2024-05-21T09:30:00Z"));
            assertThat(versions.get(1).metadata()).containsKey("references");
            assertThat(to.requireHistory().versions("coding-preferences/mem_6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
                    Scope.PROJECT)).hasSize(2);
            assertThat(to.requireGraph().relations(dev.forge.memory.EntryRef.of(
                    "coding-preferences/mem_6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f", Scope.PROJECT),
                    dev.forge.memory.Direction.OUTGOING)).hasSize(1);
        }
    }

    @Test
    void a_key_held_back_for_an_unreadable_file_makes_a_migration_not_lossless() {
        try (MarkdownMemoryProvider from = Stores.open(source)) {
            from.set("kept", "fine", Scope.PROJECT);
            from.set("damaged", "first", Scope.PROJECT);
            from.set("damaged", "second", Scope.PROJECT);
        }
        Path head = fileOf(Stores.projectDirectory(source), "damaged", 2);
        Stores.writeInPlace(head, "---\nid: [unclosed\n");
        try (MarkdownMemoryProvider from = Stores.open(source); MarkdownMemoryProvider to = Stores.open(target)) {
            ImportResult result = Importer.builder().build().migrate(from, Set.of(Scope.PROJECT), to);

            assertThat(to.get("kept", Scope.PROJECT)).isPresent();
            assertThat(to.get("damaged", Scope.PROJECT)).isEmpty();
            assertThat(result.sourceProblems()).isPositive();
            assertThat(result.lossless()).isFalse();
            assertThat(result.losses()).anyMatch(loss -> loss.contains("doctor"));
        }
    }
}
