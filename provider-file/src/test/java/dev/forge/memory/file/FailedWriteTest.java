package dev.forge.memory.file;

import static dev.forge.memory.file.Stores.entryFile;
import static dev.forge.memory.file.Stores.filesUnder;
import static dev.forge.memory.file.Stores.open;
import static dev.forge.memory.file.Stores.scopeDirectory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.support.files.AtomicFiles;
import dev.forge.memory.file.internal.EntryCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes that fail on disk change nothing, and writers do not trust an index that may have missed a change.
 * Failures are made with real files: a non-empty directory where a file must go makes the rename fail, even for
 * root (where an earlier version is kept: a directory in place of the entry file itself is a damaged entry, moved
 * aside by the next write).
 */
class FailedWriteTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path store;

    private static MemoryEntry entry(String key, String value, long version) {
        return new MemoryEntry(key, value, Scope.PROJECT, List.of(), Map.of(), T0, T0.plusSeconds(version), version);
    }

    /** Puts a non-empty directory at {@code path}, so that nothing can be renamed or linked there. */
    private static Path obstacle(Path path) throws IOException {
        Files.createDirectories(path);
        Files.writeString(path.resolve("inside"), "keeps the directory non-empty");
        return path;
    }

    private static void remove(Path obstacle) throws IOException {
        AtomicFiles.deleteTree(obstacle);
    }

    private List<String> temporaryFiles() {
        return filesUnder(store).stream().filter(f -> f.contains(AtomicFiles.TEMP_PREFIX)).toList();
    }

    private String valueOnDisk(String key) throws IOException {
        return new ObjectMapper().readTree(entryFile(store, Scope.PROJECT, key).toFile()).get("value").asText();
    }

    @Test
    void a_directory_in_place_of_an_entry_file_is_reported_and_moved_aside_by_a_set_never_deleted() throws IOException {
        try (FileMemoryProvider other = open(store)) {
            other.set("unrelated", "v", Scope.PROJECT);
            Path blocked = obstacle(entryFile(store, Scope.PROJECT, "k"));
            // Opened after the directory appeared (nothing journaled it, so a provider open before does not know).
            try (FileMemoryProvider provider = open(store)) {
                assertThatThrownBy(() -> provider.get("k", Scope.PROJECT)).isInstanceOf(CorruptEntryException.class)
                        .hasMessageContaining(blocked.toString());
                assertThat(provider.doctor()).extracting(StoreProblem::location).containsExactly(blocked.toString());
                assertThat(provider.query(Query.of("*", Scope.PROJECT))).extracting(MemoryEntry::key)
                        .containsExactly("unrelated");

                assertThat(provider.set("k", "v", Scope.PROJECT).version()).isEqualTo(1);
                assertThat(other.get("k", Scope.PROJECT).orElseThrow().value()).isEqualTo("v");
                assertThat(temporaryFiles()).isEmpty();
                assertThat(filesUnder(store)).anyMatch(f -> f.contains("k.json" + AtomicFiles.CORRUPT_INFIX)
                        && f.endsWith("/inside"));
            }
        }
    }

    @Test
    void an_overwrite_whose_history_file_cannot_be_made_changes_nothing() throws IOException {
        try (FileMemoryProvider provider = open(store); FileMemoryProvider other = open(store)) {
            provider.set("k", "one", Scope.PROJECT);
            assertThat(other.get("k", Scope.PROJECT)).isPresent();
            Path blocked = obstacle(scopeDirectory(store, Scope.PROJECT).resolve(".history/k/1.json"));

            assertThatThrownBy(() -> provider.set("k", "two", Scope.PROJECT)).isInstanceOf(StorageException.class);
            for (FileMemoryProvider p : List.of(provider, other)) {
                MemoryEntry k = p.get("k", Scope.PROJECT).orElseThrow();
                assertThat(k.value()).isEqualTo("one");
                assertThat(k.version()).isEqualTo(1);
            }
            assertThat(valueOnDisk("k")).isEqualTo("one");
            assertThat(temporaryFiles()).isEmpty();

            remove(blocked);
            assertThat(provider.set("k", "two", Scope.PROJECT).version()).isEqualTo(2);
            assertThat(other.requireHistory().versions("k", Scope.PROJECT)).extracting(MemoryEntry::value).containsExactly("one", "two");
        }
    }

    @Test
    void a_set_after_a_change_the_index_missed_continues_from_the_file_on_disk() throws IOException {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("k", "one", Scope.PROJECT);
            // Another writer's change whose journal line this provider never saw.
            Files.write(entryFile(store, Scope.PROJECT, "k"), EntryCodec.encode(entry("k", "five", 5), false));

            assertThat(provider.set("k", "six", Scope.PROJECT).version()).isEqualTo(6);
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).extracting(MemoryEntry::value, MemoryEntry::version)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("five", 5L), org.assertj.core.groups.Tuple.tuple("six", 6L));
        }
    }

    @Test
    void clear_removes_entry_files_the_index_never_heard_of() throws IOException {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("known", "v", Scope.PROJECT);
            Files.write(entryFile(store, Scope.PROJECT, "unheard"), EntryCodec.encode(entry("unheard", "v", 1), false));

            assertThat(provider.clear(Scope.PROJECT)).isEqualTo(2);
            assertThat(filesUnder(scopeDirectory(store, Scope.PROJECT))).isEmpty();
        }
        try (FileMemoryProvider reopened = open(store)) {
            assertThat(reopened.query(Query.of("*"))).isEmpty();
        }
    }

    @Test
    void a_relation_is_added_to_the_relations_on_disk_not_to_those_the_index_remembers() throws IOException {
        EntryRef a = EntryRef.of("a", Scope.PROJECT);
        EntryRef b = EntryRef.of("b", Scope.PROJECT);
        try (FileMemoryProvider provider = open(store)) {
            for (String key : List.of("a", "b", "c", "d")) {
                provider.set(key, "v", Scope.PROJECT);
            }
            // Another writer's relation whose journal line this provider never saw.
            Files.writeString(store.resolve("relations.json"), "{\"format\":1,\"relations\":[{\"from\":{\"namespace\":\"project/project-a\","
                    + "\"key\":\"a\"},\"type\":\"BY_OTHER\",\"to\":{\"namespace\":\"project/project-a\",\"key\":\"b\"},"
                    + "\"createdAt\":\"2026-01-01T00:00:00Z\"}]}", StandardCharsets.UTF_8);

            provider.requireGraph().relate(EntryRef.of("c", Scope.PROJECT), EntryRef.of("d", Scope.PROJECT), "LINKS");
        }
        try (FileMemoryProvider reopened = open(store)) {
            assertThat(reopened.requireGraph().relations(a, Direction.OUTGOING)).extracting(Relation::type, Relation::to)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("BY_OTHER", b));
            assertThat(reopened.requireGraph().relations(EntryRef.of("c", Scope.PROJECT), Direction.OUTGOING)).hasSize(1);
        }
    }

    @Test
    void a_writer_that_closes_a_torn_journal_line_rescans_instead_of_skipping_it() throws IOException {
        try (FileMemoryProvider writer = open(store)) {
            writer.set("a", "v", Scope.PROJECT);
            // A writer died half-way through the journal line of its change.
            Files.write(entryFile(store, Scope.PROJECT, "x"), EntryCodec.encode(entry("x", "from the dead writer", 1), false));
            Files.writeString(store.resolve("journal"), "S\tproject/proj", StandardOpenOption.APPEND);

            writer.set("b", "v", Scope.PROJECT);
            assertThat(writer.get("x", Scope.PROJECT)).isPresent();
        }
    }

    @Test
    void a_journal_replaced_by_a_directory_fails_writes_naming_it_and_changes_nothing() throws IOException {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("a", "one", Scope.PROJECT);
            Path journal = store.resolve("journal");
            Files.delete(journal);
            Files.createDirectory(journal);

            assertThatThrownBy(() -> provider.set("a", "two", Scope.PROJECT))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("journal");
            assertThat(valueOnDisk("a")).isEqualTo("one");

            Files.delete(journal);
            assertThat(provider.set("a", "two", Scope.PROJECT).version()).isEqualTo(2);
        }
    }

    @Test
    @DisabledOnOs(OS.WINDOWS)
    void a_directory_that_cannot_be_forced_to_disk_is_an_error_not_a_silent_success() {
        assertThatThrownBy(() -> AtomicFiles.syncDirectory(store.resolve("missing"))).isInstanceOf(IOException.class);
    }
}
