package dev.forge.memory.file;

import static dev.forge.memory.file.Stores.entryFile;
import static dev.forge.memory.file.Stores.open;
import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.file.internal.CommitLog;
import dev.forge.memory.file.internal.EntryCodec;
import dev.forge.memory.file.internal.Namespace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit interrupted by a crash: the commit record is on disk, some or none of its changes are. The next
 * open, or the next write by a provider that is already open, completes it.
 */
class TransactionRecoveryTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path store;

    private static Namespace project() {
        return Namespace.of(Scope.PROJECT, Stores.PROJECT, Stores.SESSION);
    }

    private static MemoryEntry entry(String key, String value, long version) {
        return new MemoryEntry(key, value, Scope.PROJECT, List.of(), Map.of(), T0, T0.plusSeconds(version), version);
    }

    /** The record a commit writes before changing anything: replace {@code a} v1 by v2, add {@code b}, remove {@code c}. */
    private CommitLog.Record crashedCommit() throws Exception {
        return new CommitLog(store.toRealPath()).write(List.of(
                new CommitLog.Write(project(), Optional.of(entry("a", "a one", 1)), entry("a", "a two", 2)),
                new CommitLog.Write(project(), Optional.empty(), entry("b", "b one", 1)),
                new CommitLog.Remove(project(), "c")), true);
    }

    private void storeBeforeTheCommit() {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("a", "a one", Scope.PROJECT);
            provider.set("c", "c one", Scope.PROJECT);
        }
    }

    private static void assertCommitComplete(FileMemoryProvider provider) {
        assertThat(provider.query(Query.of("*", Scope.PROJECT))).extracting(MemoryEntry::key, MemoryEntry::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", "a two"), org.assertj.core.groups.Tuple.tuple("b", "b one"));
        assertThat(provider.requireHistory().versions("a", Scope.PROJECT)).extracting(MemoryEntry::value)
                .containsExactly("a one", "a two");
        assertThat(provider.get("c", Scope.PROJECT)).isEmpty();
    }

    @Test
    void a_commit_record_left_before_any_change_is_completed_at_open() throws Exception {
        storeBeforeTheCommit();
        CommitLog.Record record = crashedCommit();

        try (FileMemoryProvider provider = open(store)) {
            assertCommitComplete(provider);
        }
        assertThat(record.file()).doesNotExist();
    }

    @Test
    void a_commit_record_left_half_way_is_completed_at_open_with_the_same_result() throws Exception {
        storeBeforeTheCommit();
        CommitLog.Record record = crashedCommit();
        // The crash came after the first change reached the disk.
        Files.write(entryFile(store, Scope.PROJECT, "a"), EntryCodec.encode(entry("a", "a two", 2), false));

        try (FileMemoryProvider provider = open(store)) {
            assertCommitComplete(provider);
        }
        assertThat(record.file()).doesNotExist();
    }

    @Test
    void a_provider_already_open_completes_the_commit_at_its_next_write_and_sees_all_of_it() throws Exception {
        storeBeforeTheCommit();
        try (FileMemoryProvider provider = open(store)) {
            CommitLog.Record record = crashedCommit();
            provider.set("unrelated", "a later write", Scope.GLOBAL);
            assertCommitComplete(provider);
            assertThat(record.file()).doesNotExist();
        }
    }

    @Test
    void a_damaged_commit_record_is_moved_aside_and_not_applied() throws Exception {
        storeBeforeTheCommit();
        Path records = store.resolve("transactions");
        Files.createDirectories(records);
        Files.writeString(records.resolve("0000-damaged.json"), "{\"operations\": [ {\"op\": \"wri");
        try (FileMemoryProvider provider = open(store)) {
            assertThat(provider.query(Query.of("*"))).extracting(MemoryEntry::key).containsExactly("a", "c");
        }
        assertThat(Stores.filesUnder(records)).singleElement().asString().startsWith("0000-damaged.json.corrupt-");
    }
}
