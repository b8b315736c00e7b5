package dev.forge.memory.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConflictException;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
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
 * What spans the project store and the shared global store: relations between a PROJECT and a GLOBAL key, transactions
 * touching both, and such a transaction cut off by a crash, completed by the next open.
 */
class SharedGlobalSpanTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path work;

    private FileMemoryProvider open(String project) throws IOException {
        return Stores.openShared(Files.createDirectories(work.resolve(project)), project, work.resolve("forge-home"), Map.of());
    }

    @Test
    void a_relation_between_a_project_key_and_a_global_key_lives_with_the_project() throws IOException {
        EntryRef decision = EntryRef.of("decision", Scope.PROJECT);
        EntryRef style = EntryRef.of("style", Scope.GLOBAL);
        Relation follows;
        try (FileMemoryProvider a = open("a")) {
            a.set("decision", "use tabs", Scope.PROJECT);
            a.set("style", "tabs", Scope.GLOBAL);
            follows = a.requireGraph().relate(decision, style, "FOLLOWS");
        }
        try (FileMemoryProvider a = open("a"); FileMemoryProvider b = open("b")) {
            MemoryGraph graph = a.requireGraph();
            assertThat(graph.relations(style, Direction.INCOMING)).containsExactly(follows);
            assertThat(b.requireGraph().relations(style, Direction.BOTH)).isEmpty();
            // Another project deletes the GLOBAL end: the relation is hidden at once.
            assertThat(b.delete("style", Scope.GLOBAL)).isTrue();
            assertThat(graph.relations(decision, Direction.OUTGOING)).isEmpty();
            // Deleted through this project, it is dropped, so a GLOBAL key stored again starts without it.
            a.set("style", "spaces", Scope.GLOBAL);
            assertThat(a.delete("style", Scope.GLOBAL)).isTrue();
            a.set("style", "tabs again", Scope.GLOBAL);
            assertThat(graph.relations(decision, Direction.OUTGOING)).isEmpty();
        }
    }

    @Test
    void a_transaction_over_both_stores_commits_all_of_it() throws IOException {
        try (FileMemoryProvider a = open("a"); FileMemoryProvider b = open("b")) {
            a.set("old", "to go", Scope.GLOBAL);
            MemoryEntry p;
            MemoryEntry g;
            try (MemoryTransaction tx = a.requireTransactions().begin()) {
                p = tx.set("p", "project part", Scope.PROJECT);
                g = tx.set("g", "global part", Scope.GLOBAL);
                assertThat(tx.delete("old", Scope.GLOBAL)).isTrue();
                tx.commit();
            }
            assertThat(a.get("p", Scope.PROJECT)).contains(p);
            assertThat(b.get("g", Scope.GLOBAL)).contains(g);
            assertThat(b.get("old", Scope.GLOBAL)).isEmpty();
            assertThat(work.resolve("a").resolve(".forge/memory/transactions")).isEmptyDirectory();
            assertThat(work.resolve("forge-home/file/transactions")).isEmptyDirectory();
        }
    }

    @Test
    void a_global_key_changed_by_another_project_fails_the_whole_transaction() throws IOException {
        try (FileMemoryProvider a = open("a"); FileMemoryProvider b = open("b")) {
            a.set("g", "v1", Scope.GLOBAL);
            MemoryTransaction tx = a.requireTransactions().begin();
            tx.get("g", Scope.GLOBAL);
            tx.set("p", "project part", Scope.PROJECT);
            tx.set("g", "from a", Scope.GLOBAL);
            b.set("g", "from b", Scope.GLOBAL);
            assertThatThrownBy(tx::commit).isInstanceOf(ConflictException.class);
            assertThat(a.get("p", Scope.PROJECT)).isEmpty();
            assertThat(a.get("g", Scope.GLOBAL).orElseThrow().value()).isEqualTo("from b");
        }
    }

    private static MemoryEntry entry(String key, Scope scope, String value, long version) {
        return new MemoryEntry(key, value, scope, List.of(), Map.of(), T0, T0.plusSeconds(version), version);
    }

    /** Writes the record a spanning commit leaves when a crash cuts it off: P1 new, G1 v1 to v2, G2 new. */
    private void crashedSpanningCommit(Path projectStore) throws IOException {
        Namespace project = Namespace.of(Scope.PROJECT, "a", Stores.SESSION);
        Namespace global = Namespace.of(Scope.GLOBAL, "a", Stores.SESSION);
        new CommitLog(projectStore.toRealPath()).write(
                List.of(new CommitLog.Write(project, Optional.empty(), entry("p1", Scope.PROJECT, "p one", 1))),
                List.of(new CommitLog.Write(global, Optional.of(entry("g1", Scope.GLOBAL, "g one", 1)), entry("g1", Scope.GLOBAL, "g two", 2)),
                        new CommitLog.Write(global, Optional.empty(), entry("g2", Scope.GLOBAL, "g2 one", 1))),
                true);
    }

    @Test
    void a_cut_off_global_removal_is_completed_where_the_key_is_as_it_found_it_and_spares_a_key_stored_again()
            throws IOException {
        Namespace project = Namespace.of(Scope.PROJECT, "a", Stores.SESSION);
        Namespace global = Namespace.of(Scope.GLOBAL, "a", Stores.SESSION);
        MemoryEntry stale = entry("stale", Scope.GLOBAL, "to remove", 1);
        MemoryEntry reborn = entry("reborn", Scope.GLOBAL, "to remove", 1);
        Path store;
        try (FileMemoryProvider a = open("a"); FileMemoryProvider b = open("b")) {
            a.restoring().orElseThrow().restore(List.of(stale));
            // Removed by the transaction before the crash, then stored again by another project.
            b.set("reborn", "stored again by b", Scope.GLOBAL);
            store = a.directory();
        }
        new CommitLog(store.toRealPath()).write(
                List.of(new CommitLog.Write(project, Optional.empty(), entry("p1", Scope.PROJECT, "p one", 1))),
                List.of(new CommitLog.Remove(global, "stale", Optional.of(stale)), new CommitLog.Remove(global, "reborn", Optional.of(reborn))),
                true);
        try (FileMemoryProvider a = open("a")) {
            assertThat(a.get("p1", Scope.PROJECT)).isPresent();
            assertThat(a.get("stale", Scope.GLOBAL)).isEmpty();
            assertThat(a.get("reborn", Scope.GLOBAL).orElseThrow().value()).isEqualTo("stored again by b");
        }
    }

    @Test
    void a_spanning_commit_cut_off_before_either_part_is_completed_by_the_next_open() throws IOException {
        Path store;
        try (FileMemoryProvider a = open("a")) {
            a.restoring().orElseThrow().restore(List.of(entry("g1", Scope.GLOBAL, "g one", 1)));
            store = a.directory();
        }
        crashedSpanningCommit(store);
        try (FileMemoryProvider a = open("a")) {
            assertThat(a.get("p1", Scope.PROJECT).orElseThrow().value()).isEqualTo("p one");
            assertThat(a.requireHistory().versions("g1", Scope.GLOBAL)).extracting(MemoryEntry::value).containsExactly("g one", "g two");
            assertThat(a.get("g2", Scope.GLOBAL).orElseThrow().value()).isEqualTo("g2 one");
            assertThat(store.resolve("transactions")).isEmptyDirectory();
        }
    }

    @Test
    void a_spanning_commit_cut_off_after_its_global_part_does_not_apply_that_part_again_nor_undo_a_later_write()
            throws IOException {
        Path store;
        try (FileMemoryProvider a = open("a"); FileMemoryProvider b = open("b")) {
            a.restoring().orElseThrow().restore(List.of(entry("g1", Scope.GLOBAL, "g one", 1), entry("g1", Scope.GLOBAL, "g two", 2)));
            a.restoring().orElseThrow().restore(List.of(entry("g2", Scope.GLOBAL, "g2 one", 1)));
            // After the crash, another project wrote g2 again before this one reopened.
            b.set("g2", "g2 from b", Scope.GLOBAL);
            store = a.directory();
        }
        crashedSpanningCommit(store);
        try (FileMemoryProvider a = open("a")) {
            assertThat(a.get("p1", Scope.PROJECT).orElseThrow().value()).isEqualTo("p one");
            assertThat(a.requireHistory().versions("g1", Scope.GLOBAL)).extracting(MemoryEntry::version).containsExactly(1L, 2L);
            assertThat(a.get("g2", Scope.GLOBAL).orElseThrow().value()).isEqualTo("g2 from b");
            assertThat(store.resolve("transactions")).isEmptyDirectory();
        }
    }
}
