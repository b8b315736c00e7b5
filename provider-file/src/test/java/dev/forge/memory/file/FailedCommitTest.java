package dev.forge.memory.file;

import static dev.forge.memory.file.Stores.filesUnder;
import static dev.forge.memory.file.Stores.open;
import static dev.forge.memory.file.Stores.scopeDirectory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.support.files.AtomicFiles;
import dev.forge.memory.file.internal.CommitLog;
import dev.forge.memory.file.internal.Namespace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction commit that fails on disk half-way: undone, so that nobody sees part of it and a retry applies it
 * once; a commit cut off by a crash that cannot be completed says what blocks the store.
 */
class FailedCommitTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path store;

    private static Path obstacle(Path path) throws IOException {
        Files.createDirectories(path);
        Files.writeString(path.resolve("inside"), "keeps the directory non-empty");
        return path;
    }

    /**
     * Where the version 1 of {@code b} goes when it is overwritten: a non-empty directory there makes that step fail,
     * even for root. (A directory in place of an entry file itself would be moved aside, as a damaged entry.)
     */
    private Path historyOfB() {
        return scopeDirectory(store, Scope.PROJECT).resolve(".history/b/1.json");
    }

    private static void commitTheTransaction(MemoryProvider provider) {
        provider.requireTransactions().inTransaction(tx -> {
            tx.set("a", "a two", Scope.PROJECT);
            tx.delete("c", Scope.PROJECT);
            tx.set("b", "b one", Scope.PROJECT);
            return null;
        });
    }

    private static void assertBeforeTheTransaction(MemoryProvider provider) {
        MemoryEntry a = provider.get("a", Scope.PROJECT).orElseThrow();
        assertThat(a.value()).isEqualTo("a one");
        assertThat(a.version()).isEqualTo(1);
        MemoryEntry b = provider.get("b", Scope.PROJECT).orElseThrow();
        assertThat(b.value()).isEqualTo("b zero");
        assertThat(b.version()).isEqualTo(1);
        assertThat(provider.requireHistory().versions("c", Scope.PROJECT)).extracting(MemoryEntry::value).containsExactly("c one", "c two");
        assertThat(provider.requireGraph().relations(EntryRef.of("a", Scope.PROJECT), Direction.OUTGOING)).hasSize(1);
    }

    private List<String> leftovers() {
        return filesUnder(store).stream().filter(f -> f.startsWith("transactions/") || f.contains(AtomicFiles.TEMP_PREFIX)).toList();
    }

    @Test
    void a_commit_that_fails_half_way_is_undone_and_none_of_it_is_seen() throws IOException {
        try (FileMemoryProvider provider = open(store); FileMemoryProvider other = open(store)) {
            provider.set("a", "a one", Scope.PROJECT);
            provider.set("c", "c one", Scope.PROJECT);
            provider.set("c", "c two", Scope.PROJECT);
            provider.set("b", "b zero", Scope.PROJECT);
            provider.requireGraph().relate(EntryRef.of("a", Scope.PROJECT), EntryRef.of("c", Scope.PROJECT), "NEEDS");
            assertBeforeTheTransaction(other);
            // "a" is written and "c" removed before the overwrite of "b" fails.
            Path blocked = obstacle(historyOfB());

            assertThatThrownBy(() -> commitTheTransaction(provider))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("not committed")
                    .hasMessageContaining("Nothing was applied");
            assertBeforeTheTransaction(provider);
            assertBeforeTheTransaction(other);
            assertThat(leftovers()).isEmpty();

            // Later writes are not blocked, and do not complete the failed commit behind the caller's back.
            provider.set("unrelated", "v", Scope.GLOBAL);
            assertBeforeTheTransaction(other);

            // The caller fixes the cause and retries: the transaction is applied once.
            AtomicFiles.deleteTree(blocked);
            commitTheTransaction(provider);
            assertThat(other.requireHistory().versions("a", Scope.PROJECT)).extracting(MemoryEntry::value).containsExactly("a one", "a two");
            assertThat(other.get("b", Scope.PROJECT).orElseThrow().version()).isEqualTo(2);
            assertThat(other.get("c", Scope.PROJECT)).isEmpty();
        }
        try (FileMemoryProvider reopened = open(store)) {
            assertThat(reopened.get("a", Scope.PROJECT).orElseThrow().version()).isEqualTo(2);
            assertThat(reopened.requireGraph().relations(EntryRef.of("a", Scope.PROJECT), Direction.BOTH)).isEmpty();
        }
    }

    @Test
    void a_commit_cut_off_that_cannot_be_completed_blocks_writes_with_a_message_naming_its_record() throws IOException {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("a", "a one", Scope.PROJECT);
            provider.set("b", "b zero", Scope.PROJECT);
        }
        Namespace project = Namespace.of(Scope.PROJECT, Stores.PROJECT, Stores.SESSION);
        MemoryEntry a1 = new MemoryEntry("a", "a one", Scope.PROJECT, List.of(), Map.of(), T0, T0, 1);
        MemoryEntry a2 = new MemoryEntry("a", "a two", Scope.PROJECT, List.of(), Map.of(), T0, T0.plusSeconds(1), 2);
        MemoryEntry b1 = new MemoryEntry("b", "b zero", Scope.PROJECT, List.of(), Map.of(), T0, T0, 1);
        MemoryEntry b2 = new MemoryEntry("b", "b one", Scope.PROJECT, List.of(), Map.of(), T0, T0.plusSeconds(1), 2);
        // What a crash leaves: the record of a commit that had not finished.
        CommitLog.Record record = new CommitLog(store.toRealPath()).write(List.of(
                new CommitLog.Write(project, Optional.of(a1), a2),
                new CommitLog.Write(project, Optional.of(b1), b2)), true);
        Path blocked = obstacle(historyOfB());

        try (FileMemoryProvider provider = open(store)) {
            assertThat(provider.get("a", Scope.PROJECT)).isPresent();
            assertThatThrownBy(() -> provider.set("x", "v", Scope.PROJECT))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining(record.file().getFileName().toString())
                    .hasMessageContaining("cannot be completed")
                    .hasMessageContaining("Every write to this store fails until it is");
            assertThat(record.file()).exists();
            assertThat(provider.get("x", Scope.PROJECT)).isEmpty();

            AtomicFiles.deleteTree(blocked);
            provider.set("x", "v", Scope.PROJECT);
            assertThat(provider.get("a", Scope.PROJECT).orElseThrow().value()).isEqualTo("a two");
            assertThat(provider.get("b", Scope.PROJECT).orElseThrow().value()).isEqualTo("b one");
            assertThat(record.file()).doesNotExist();
        }
    }
}
