package dev.forge.memory.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A project store written before GLOBAL was shared keeps its GLOBAL entries in {@code <base_path>/global}. Opened now,
 * they move into the shared global store with their history; a key the shared store holds with another value stays
 * and {@code doctor} says what to do; a move cut off by a crash is finished by the next open.
 */
class GlobalMigrationTest {

    @TempDir
    Path work;

    private Path project() throws IOException {
        return Files.createDirectories(work.resolve("app"));
    }

    private Path forgeHome() {
        return work.resolve("forge-home");
    }

    /** The store as the provider wrote it until now: every scope in the project's own store directory. */
    private FileMemoryProvider openTheOldWay() throws IOException {
        return Stores.openShared(project(), "app", forgeHome(), Map.of("global_path", ".forge/memory"));
    }

    private FileMemoryProvider openNow(String project) throws IOException {
        return Stores.openShared(Files.createDirectories(work.resolve(project)), project, forgeHome(), Map.of());
    }

    @Test
    void global_entries_of_an_old_project_store_move_to_the_shared_store_with_their_history_and_relations() throws IOException {
        List<MemoryEntry> written;
        Relation follows;
        try (FileMemoryProvider old = openTheOldWay()) {
            old.set("decision", "use tabs", Scope.PROJECT);
            written = List.of(old.set("style", "tabs", Scope.GLOBAL, List.of("format"), Map.of("by", "ana")),
                    old.set("style", "spaces", Scope.GLOBAL));
            old.set("other", "x", Scope.GLOBAL);
            follows = old.requireGraph().relate(EntryRef.of("decision", Scope.PROJECT), EntryRef.of("style", Scope.GLOBAL), "FOLLOWS");
        }
        Path oldGlobal = project().resolve(".forge/memory/global");
        assertThat(oldGlobal.resolve("style.json")).isRegularFile();
        try (FileMemoryProvider now = openNow("app")) {
            assertThat(now.requireHistory().versions("style", Scope.GLOBAL)).containsExactlyElementsOf(written);
            assertThat(now.query(Query.of("*", Scope.GLOBAL))).extracting(MemoryEntry::key).containsExactlyInAnyOrder("style", "other");
            assertThat(now.requireGraph().relations(EntryRef.of("decision", Scope.PROJECT), Direction.OUTGOING)).containsExactly(follows);
            assertThat(now.doctor()).isEmpty();
        }
        assertThat(Stores.filesUnder(oldGlobal)).isEmpty();
        assertThat(forgeHome().resolve("file/global/.history/style/1.json")).isRegularFile();
        try (FileMemoryProvider other = openNow("other-app")) {
            assertThat(other.get("style", Scope.GLOBAL)).contains(written.get(1));
        }
    }

    @Test
    void a_key_the_shared_store_holds_with_another_value_stays_and_doctor_says_what_to_do() throws IOException {
        MemoryEntry local;
        try (FileMemoryProvider old = openTheOldWay()) {
            local = old.set("style", "tabs", Scope.GLOBAL);
            old.set("moved", "x", Scope.GLOBAL);
        }
        MemoryEntry shared;
        try (FileMemoryProvider other = openNow("other-app")) {
            shared = other.set("style", "spaces, decided elsewhere", Scope.GLOBAL);
        }
        for (int open = 0; open < 2; open++) {
            try (FileMemoryProvider now = openNow("app")) {
                assertThat(now.get("style", Scope.GLOBAL)).contains(shared);
                assertThat(now.get("moved", Scope.GLOBAL)).isPresent();
                List<StoreProblem> problems = now.doctor();
                assertThat(problems).hasSize(1);
                assertThat(problems.get(0).location()).endsWith("global/style.json");
                assertThat(problems.get(0).problem()).contains("'style'").contains("holds another value")
                        .contains("forge-memory set --scope global").contains("delete this file");
            }
        }
        Path left = project().resolve(".forge/memory/global/style.json");
        assertThat(left).isRegularFile();
        try (FileMemoryProvider old = openTheOldWay()) {
            assertThat(old.get("style", Scope.GLOBAL)).as("still there, unchanged").contains(local);
        }
    }

    @Test
    void a_move_cut_off_after_the_shared_store_has_the_key_is_finished_by_the_next_open() throws IOException {
        List<MemoryEntry> chain;
        try (FileMemoryProvider old = openTheOldWay()) {
            old.set("style", "tabs", Scope.GLOBAL);
            old.set("style", "spaces", Scope.GLOBAL);
            chain = old.requireHistory().versions("style", Scope.GLOBAL);
        }
        // What the crash left: the shared store has the key's whole chain, the project store still has it too.
        try (FileMemoryProvider other = openNow("other-app")) {
            other.restoring().orElseThrow().restore(chain);
        }
        try (FileMemoryProvider now = openNow("app")) {
            assertThat(now.requireHistory().versions("style", Scope.GLOBAL)).containsExactlyElementsOf(chain);
            assertThat(now.doctor()).isEmpty();
        }
        assertThat(project().resolve(".forge/memory/global/style.json")).doesNotExist();
    }

    @Test
    void a_damaged_global_file_of_an_old_store_is_left_in_place_and_reported() throws IOException {
        try (FileMemoryProvider old = openTheOldWay()) {
            old.set("fine", "x", Scope.GLOBAL);
        }
        Path damaged = Files.writeString(project().resolve(".forge/memory/global/broken.json"), "{ not json");
        try (FileMemoryProvider now = openNow("app")) {
            assertThat(now.get("fine", Scope.GLOBAL)).isPresent();
            assertThat(now.doctor()).extracting(StoreProblem::location).contains(damaged.toRealPath().toString());
        }
        assertThat(damaged).hasContent("{ not json");
    }
}
