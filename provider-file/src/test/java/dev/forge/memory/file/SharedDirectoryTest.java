package dev.forge.memory.file;

import static dev.forge.memory.file.Stores.context;
import static dev.forge.memory.file.Stores.open;
import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two provider instances on one directory, each with its own index: what one writes, the other sees on its
 * next read, through the journal.
 */
class SharedDirectoryTest {

    @TempDir
    Path store;

    private FileMemoryProvider first;
    private FileMemoryProvider second;

    @BeforeEach
    void openTwoInstances() {
        first = open(store);
        second = open(store);
    }

    @AfterEach
    void closeThem() {
        first.close();
        second.close();
    }

    @Test
    void a_set_by_one_instance_is_seen_by_get_query_and_search_of_the_other() {
        assertThat(second.query(Query.of("*"))).isEmpty();
        first.set("decision:db", "We chose SQLite for the cache", Scope.PROJECT, List.of("adr"), Map.of());
        first.set("pref:editor", "vim keybindings", Scope.GLOBAL);

        assertThat(second.get("decision:db", Scope.PROJECT).orElseThrow().value()).isEqualTo("We chose SQLite for the cache");
        assertThat(second.query(Query.of("tag:adr"))).extracting(MemoryEntry::key).containsExactly("decision:db");
        assertThat(second.search(SearchRequest.keyword("sqlite"))).extracting(h -> h.entry().key()).containsExactly("decision:db");
        assertThat(second.get("pref:editor", Scope.GLOBAL)).isPresent();
    }

    @Test
    void overwrites_continue_the_version_sequence_across_instances() {
        first.set("k", "one", Scope.PROJECT);
        assertThat(second.set("k", "two", Scope.PROJECT).version()).isEqualTo(2);
        assertThat(first.set("k", "three", Scope.PROJECT).version()).isEqualTo(3);
        assertThat(second.get("k", Scope.PROJECT).orElseThrow().value()).isEqualTo("three");
        assertThat(second.requireHistory().versions("k", Scope.PROJECT)).extracting(MemoryEntry::value)
                .containsExactly("one", "two", "three");
    }

    @Test
    void a_delete_by_one_instance_is_seen_by_the_other() {
        first.set("k", "v", Scope.PROJECT);
        assertThat(second.get("k", Scope.PROJECT)).isPresent();
        assertThat(first.delete("k", Scope.PROJECT)).isTrue();
        assertThat(second.get("k", Scope.PROJECT)).isEmpty();
        assertThat(second.delete("k", Scope.PROJECT)).isFalse();
        assertThat(second.set("k", "again", Scope.PROJECT).version()).isEqualTo(1);
    }

    @Test
    void a_clear_by_one_instance_is_seen_by_the_other() {
        for (int i = 0; i < 5; i++) {
            first.set("p" + i, "v", Scope.PROJECT);
            first.set("g" + i, "v", Scope.GLOBAL);
        }
        assertThat(second.query(Query.of("*"))).hasSize(10);
        assertThat(second.clear(Scope.PROJECT)).isEqualTo(5);
        assertThat(first.query(Query.of("*"))).extracting(MemoryEntry::key).containsExactly("g0", "g1", "g2", "g3", "g4");
    }

    @Test
    void session_entries_of_another_session_stay_invisible_and_untouched() {
        try (FileMemoryProvider other = Stores.open(store, Stores.PROJECT, "session-2", Map.of())) {
            other.set("scratch", "theirs", Scope.SESSION);
            first.set("scratch", "mine", Scope.SESSION);
            assertThat(first.get("scratch", Scope.SESSION).orElseThrow().value()).isEqualTo("mine");
            assertThat(first.clear(Scope.SESSION)).isEqualTo(1);
            assertThat(other.get("scratch", Scope.SESSION).orElseThrow().value()).isEqualTo("theirs");
        }
    }

    @Test
    void relations_made_and_removed_by_one_instance_are_seen_by_the_other() {
        EntryRef a = EntryRef.of("a", Scope.PROJECT);
        EntryRef b = EntryRef.of("b", Scope.GLOBAL);
        first.set("a", "x", Scope.PROJECT);
        first.set("b", "y", Scope.GLOBAL);
        Relation made = first.requireGraph().relate(a, b, "USES");
        assertThat(second.requireGraph().relations(a, Direction.OUTGOING)).containsExactly(made);
        // relating again from the other instance is the same relation, not a second one
        assertThat(second.requireGraph().relate(a, b, "USES")).isEqualTo(made);

        second.delete("b", Scope.GLOBAL);
        assertThat(first.requireGraph().relations(a, Direction.BOTH)).isEmpty();
    }

    @Test
    void a_commit_by_one_instance_becomes_visible_to_the_other_all_at_once() {
        first.requireTransactions().inTransaction(tx -> {
            tx.set("x", "1", Scope.PROJECT);
            tx.set("y", "2", Scope.PROJECT);
            assertThat(second.query(Query.of("*"))).isEmpty();
            return null;
        });
        assertThat(second.query(Query.of("*"))).extracting(MemoryEntry::key).containsExactly("x", "y");
    }

    @Test
    void readers_stay_correct_when_the_journal_starts_a_new_generation() throws IOException {
        try (FileMemoryProvider writer = FileMemoryProvider.open(context(store, Stores.PROJECT, Stores.SESSION, Map.of()),
                new FileConfig(".", null, null, null), 300)) {
            assertThat(second.query(Query.of("*"))).isEmpty();
            for (int i = 0; i < 40; i++) {
                writer.set("k" + i, "v" + i, Scope.PROJECT);
                if (i % 7 == 0) {
                    assertThat(second.query(Query.of("*"))).hasSize(i + 1);
                }
            }
            writer.delete("k3", Scope.PROJECT);
            assertThat(Files.size(store.resolve("journal"))).isLessThan(400);
            assertThat(second.query(Query.of("*"))).hasSize(39);
            assertThat(second.get("k3", Scope.PROJECT)).isEmpty();
            assertThat(second.get("k39", Scope.PROJECT).orElseThrow().value()).isEqualTo("v39");
        }
    }

    @Test
    void a_journal_removed_by_hand_is_recreated_and_readers_rescan() throws IOException {
        first.set("before", "v", Scope.PROJECT);
        assertThat(second.get("before", Scope.PROJECT)).isPresent();
        Files.delete(store.resolve("journal"));
        first.set("after", "v", Scope.PROJECT);
        assertThat(store.resolve("journal")).isRegularFile();
        assertThat(second.query(Query.of("*"))).extracting(MemoryEntry::key).containsExactly("after", "before");
    }

    @Test
    void a_journal_line_cut_off_by_a_crash_makes_readers_rescan_instead_of_misreading() throws IOException {
        first.set("a", "v", Scope.PROJECT);
        assertThat(second.get("a", Scope.PROJECT)).isPresent();
        Files.writeString(store.resolve("journal"), "S\tproject/pro", java.nio.file.StandardOpenOption.APPEND);
        first.set("b", "v", Scope.PROJECT);
        assertThat(second.query(Query.of("*"))).extracting(MemoryEntry::key).containsExactly("a", "b");
        assertThat(Files.readString(store.resolve("journal"))).contains("S\tproject/pro\nS\tproject/project-a\tb\n");
    }
}
