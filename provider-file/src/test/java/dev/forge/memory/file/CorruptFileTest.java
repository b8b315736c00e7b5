package dev.forge.memory.file;

import static dev.forge.memory.file.Stores.entryFile;
import static dev.forge.memory.file.Stores.filesUnder;
import static dev.forge.memory.file.Stores.open;
import static dev.forge.memory.file.Stores.scopeDirectory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.Traversal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged files on disk: never fatal at open, never deleted or overwritten silently. */
class CorruptFileTest {

    private static final String GARBAGE = "{\"key\": \"broken\", \"value\": \"cut off in the mid";

    @TempDir
    Path store;

    private Path broken;

    @BeforeEach
    void storeOneGoodAndOneDamagedEntry() throws IOException {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("good", "a healthy entry about parsing", Scope.PROJECT);
            provider.set("broken", "will be damaged about parsing", Scope.PROJECT);
        }
        broken = entryFile(store, Scope.PROJECT, "broken");
        Files.writeString(broken, GARBAGE);
    }

    @Test
    void a_damaged_file_does_not_prevent_opening_and_is_kept_out_of_queries_and_search() {
        try (FileMemoryProvider provider = open(store)) {
            assertThat(provider.get("good", Scope.PROJECT)).isPresent();
            assertThat(provider.query(Query.of("*"))).extracting(MemoryEntry::key).containsExactly("good");
            assertThat(provider.search(SearchRequest.keyword("parsing"))).extracting(h -> h.entry().key()).containsExactly("good");
        }
    }

    @Test
    void doctor_lists_the_damaged_file_then_the_file_moved_aside_and_never_quotes_values() {
        try (FileMemoryProvider provider = open(store)) {
            assertThat(provider.doctor()).singleElement().satisfies(problem -> {
                assertThat(problem.location()).isEqualTo(broken.toString());
                assertThat(problem.problem()).contains("cannot be read").doesNotContain("cut off in the mid");
            });
            provider.set("broken", "stored again", Scope.PROJECT);
            assertThat(provider.doctor()).singleElement().satisfies(problem -> {
                assertThat(problem.location()).contains("broken.json.corrupt-");
                assertThat(problem.problem()).contains("moved aside");
            });
        }
    }

    @Test
    void get_of_a_damaged_entry_throws_naming_the_file_which_is_left_in_place() throws IOException {
        try (FileMemoryProvider provider = open(store)) {
            assertThatThrownBy(() -> provider.get("broken", Scope.PROJECT))
                    .isInstanceOf(CorruptEntryException.class)
                    .hasMessageContaining(broken.getFileName().toString())
                    .hasMessageContaining("left in place")
                    .hasMessageContaining("'broken'");
            assertThatThrownBy(() -> provider.requireHistory().versions("broken", Scope.PROJECT))
                    .isInstanceOf(CorruptEntryException.class);
        }
        assertThat(Files.readString(broken)).isEqualTo(GARBAGE);
    }

    @Test
    void a_file_holding_another_key_is_treated_as_damaged() throws IOException {
        Path good = entryFile(store, Scope.PROJECT, "good");
        Path renamed = entryFile(store, Scope.PROJECT, "impostor");
        Files.copy(good, renamed);
        try (FileMemoryProvider provider = open(store)) {
            assertThatThrownBy(() -> provider.get("impostor", Scope.PROJECT))
                    .isInstanceOf(CorruptEntryException.class)
                    .hasMessageContaining("holds key 'good'");
            assertThat(provider.get("good", Scope.PROJECT)).isPresent();
        }
        assertThat(renamed).exists();
    }

    @Test
    void set_of_a_damaged_key_moves_the_file_aside_first_and_starts_at_version_one() throws IOException {
        try (FileMemoryProvider provider = open(store)) {
            MemoryEntry replaced = provider.set("broken", "stored again", Scope.PROJECT);
            assertThat(replaced.version()).isEqualTo(1);
            assertThat(provider.get("broken", Scope.PROJECT).orElseThrow().value()).isEqualTo("stored again");
        }
        Path directory = scopeDirectory(store, Scope.PROJECT);
        try (var files = Files.list(directory)) {
            Path aside = files.filter(p -> p.getFileName().toString().startsWith("broken.json.corrupt-")).findFirst().orElseThrow();
            assertThat(Files.readString(aside)).isEqualTo(GARBAGE);
        }
        try (FileMemoryProvider reopened = open(store)) {
            assertThat(reopened.get("broken", Scope.PROJECT).orElseThrow().value()).isEqualTo("stored again");
        }
    }

    @Test
    void delete_of_a_damaged_key_moves_the_file_aside_and_reports_it_was_there() {
        try (FileMemoryProvider provider = open(store)) {
            assertThat(provider.delete("broken", Scope.PROJECT)).isTrue();
            assertThat(provider.get("broken", Scope.PROJECT)).isEmpty();
            assertThat(provider.delete("broken", Scope.PROJECT)).isFalse();
        }
        assertThat(broken).doesNotExist();
        assertThat(filesUnder(scopeDirectory(store, Scope.PROJECT))).anyMatch(f -> f.startsWith("broken.json.corrupt-"));
    }

    @Test
    void clear_removes_the_readable_entries_and_leaves_damaged_files_in_place() throws IOException {
        try (FileMemoryProvider provider = open(store)) {
            assertThat(provider.clear(Scope.PROJECT)).isEqualTo(1);
            assertThat(provider.get("good", Scope.PROJECT)).isEmpty();
            assertThatThrownBy(() -> provider.get("broken", Scope.PROJECT)).isInstanceOf(CorruptEntryException.class);
        }
        assertThat(Files.readString(broken)).isEqualTo(GARBAGE);
    }

    @Test
    void a_reader_catching_up_with_the_journal_finds_a_file_damaged_since_it_was_written() throws IOException {
        try (FileMemoryProvider reader = open(store); FileMemoryProvider writer = open(store)) {
            assertThat(reader.get("good", Scope.PROJECT)).isPresent();
            writer.set("good", "second version", Scope.PROJECT);
            Files.write(entryFile(store, Scope.PROJECT, "good"), new byte[] {0, 1, 2});

            assertThatThrownBy(() -> reader.get("good", Scope.PROJECT)).isInstanceOf(CorruptEntryException.class);
            assertThat(reader.query(Query.of("*"))).isEmpty();
        }
    }

    @Test
    void a_damaged_relations_file_fails_graph_reads_and_unrelate_and_is_moved_aside_by_the_next_relation() throws IOException {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("other", "x", Scope.PROJECT);
            provider.requireGraph().relate(EntryRef.of("good", Scope.PROJECT), EntryRef.of("other", Scope.PROJECT), "LINKS");
        }
        Path relations = store.resolve("relations.json");
        Files.writeString(relations, "[not json", StandardCharsets.UTF_8);
        try (FileMemoryProvider provider = open(store)) {
            EntryRef good = EntryRef.of("good", Scope.PROJECT);
            assertThatThrownBy(() -> provider.requireGraph().relations(good, Direction.BOTH))
                    .isInstanceOf(CorruptEntryException.class)
                    .hasMessageContaining("relations.json")
                    .hasMessageContaining("left in place");
            assertThatThrownBy(() -> provider.requireGraph().traverse(good, Traversal.outgoing(2)))
                    .isInstanceOf(CorruptEntryException.class);
            assertThatThrownBy(() -> provider.requireGraph().unrelate(good, EntryRef.of("other", Scope.PROJECT), "LINKS"))
                    .isInstanceOf(CorruptEntryException.class)
                    .hasMessageContaining("relations.json");
            assertThat(Files.readString(relations)).isEqualTo("[not json");

            provider.requireGraph().relate(good, EntryRef.of("other", Scope.PROJECT), "NEW");
            assertThat(provider.requireGraph().relations(good, Direction.OUTGOING)).extracting(r -> r.type()).containsExactly("NEW");
        }
        assertThat(filesUnder(store)).anyMatch(f -> f.startsWith("relations.json.corrupt-"));
    }
}
