package dev.forge.memory.file;

import static dev.forge.memory.file.Stores.entryFile;
import static dev.forge.memory.file.Stores.filesUnder;
import static dev.forge.memory.file.Stores.open;
import static dev.forge.memory.file.Stores.scopeDirectory;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.Keys;
import dev.forge.memory.spi.ProviderRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the file provider puts entries, and what the files hold. */
class FileLayoutTest {

    @TempDir
    Path store;

    @Test
    void factory_is_found_by_name_through_the_service_loader() {
        assertThat(ProviderRegistry.load().factory("file")).isInstanceOf(FileMemoryProviderFactory.class);
    }

    @Test
    void set_of_key_with_colon_and_underscore_variants_uses_distinct_files() {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("a:b", "colon", Scope.PROJECT);
            provider.set("a_b", "underscore", Scope.PROJECT);
            provider.set("A:b", "upper-case colon", Scope.PROJECT);
        }
        Path project = scopeDirectory(store, Scope.PROJECT);
        List<String> names = List.of(Keys.toFileName("a:b"), Keys.toFileName("a_b"), Keys.toFileName("A:b"));
        assertThat(names).doesNotHaveDuplicates();
        for (String name : names) {
            assertThat(project.resolve(name + ".json")).isRegularFile();
        }
        // Distinct even where the file system ignores case.
        assertThat(names.stream().map(String::toLowerCase).distinct()).hasSize(3);
        try (FileMemoryProvider reopened = open(store)) {
            assertThat(reopened.get("a:b", Scope.PROJECT).orElseThrow().value()).isEqualTo("colon");
            assertThat(reopened.get("a_b", Scope.PROJECT).orElseThrow().value()).isEqualTo("underscore");
            assertThat(reopened.get("A:b", Scope.PROJECT).orElseThrow().value()).isEqualTo("upper-case colon");
        }
    }

    @Test
    void entries_live_in_a_directory_per_scope_named_after_the_project_and_session() {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("k", "session value", Scope.SESSION);
            provider.set("k", "project value", Scope.PROJECT);
            provider.set("k", "global value", Scope.GLOBAL);
        }
        assertThat(filesUnder(store)).contains(
                "session/project-a/session-1/k.json",
                "project/project-a/k.json",
                "global/k.json");
    }

    @Test
    void an_entry_file_holds_the_whole_entry_as_json() throws IOException {
        MemoryEntry stored;
        try (FileMemoryProvider provider = open(store)) {
            provider.set("notes:style", "first", Scope.PROJECT);
            stored = provider.set("notes:style", "Use **records**.", Scope.PROJECT, List.of("style", "java"),
                    Map.of("source", "review", "weight", 3));
        }
        JsonNode json = new ObjectMapper().readTree(entryFile(store, Scope.PROJECT, "notes:style").toFile());
        assertThat(json.get("key").asText()).isEqualTo("notes:style");
        assertThat(json.get("value").asText()).isEqualTo("Use **records**.");
        assertThat(json.get("scope").asText()).isEqualTo("project");
        assertThat(json.get("tags")).extracting(JsonNode::asText).containsExactly("style", "java");
        assertThat(json.get("metadata").get("source").asText()).isEqualTo("review");
        assertThat(json.get("metadata").get("weight").asLong()).isEqualTo(3);
        assertThat(json.get("createdAt").asText()).isEqualTo(stored.createdAt().toString());
        assertThat(json.get("updatedAt").asText()).isEqualTo(stored.updatedAt().toString());
        assertThat(json.get("version").asLong()).isEqualTo(2);
    }

    @Test
    void earlier_versions_are_kept_under_history_and_removed_with_the_key() {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("k", "one", Scope.PROJECT);
            provider.set("k", "two", Scope.PROJECT);
            provider.set("k", "three", Scope.PROJECT);
            assertThat(filesUnder(scopeDirectory(store, Scope.PROJECT))).containsExactly(".history/k/1.json", ".history/k/2.json", "k.json");
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).extracting(MemoryEntry::value)
                    .containsExactly("one", "two", "three");

            provider.delete("k", Scope.PROJECT);
            assertThat(filesUnder(scopeDirectory(store, Scope.PROJECT))).isEmpty();
        }
    }

    @Test
    void two_projects_on_one_base_path_use_separate_directories() {
        try (FileMemoryProvider a = open(store, "project-a", "s", Map.of());
             FileMemoryProvider b = open(store, "Project/B", "s", Map.of())) {
            a.set("k", "of a", Scope.PROJECT);
            b.set("k", "of b", Scope.PROJECT);
            assertThat(a.get("k", Scope.PROJECT).orElseThrow().value()).isEqualTo("of a");
            assertThat(b.get("k", Scope.PROJECT).orElseThrow().value()).isEqualTo("of b");
        }
        assertThat(filesUnder(store.resolve("project"))).containsExactlyInAnyOrder(
                "project-a/k.json", Keys.toFileName("Project/B") + "/k.json");
    }

    @Test
    void keys_that_look_like_paths_stay_inside_their_scope_directory() {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("../../escape", "x", Scope.PROJECT);
            provider.set("/etc/passwd", "y", Scope.PROJECT);
            provider.set("con", "windows device name", Scope.PROJECT);
        }
        assertThat(filesUnder(store)).allMatch(f -> !f.startsWith("project/") || f.startsWith("project/project-a/"));
        assertThat(filesUnder(scopeDirectory(store, Scope.PROJECT))).hasSize(3).noneMatch(f -> f.contains("/"));
        try (FileMemoryProvider reopened = open(store)) {
            assertThat(reopened.query(Query.of("*", Scope.PROJECT))).extracting(MemoryEntry::key)
                    .containsExactly("../../escape", "/etc/passwd", "con");
        }
    }

    @Test
    void a_key_too_long_for_a_file_name_gets_a_digest_name_and_round_trips() {
        String longKey = "k".repeat(300);
        String otherLongKey = "k".repeat(299) + "j";
        try (FileMemoryProvider provider = open(store)) {
            provider.set(longKey, "long", Scope.PROJECT);
            provider.set(otherLongKey, "other", Scope.PROJECT);
        }
        assertThat(filesUnder(scopeDirectory(store, Scope.PROJECT))).hasSize(2)
                .allMatch(f -> f.contains("~") && f.length() <= Keys.MAX_FILE_NAME_LENGTH + ".json".length());
        try (FileMemoryProvider reopened = open(store)) {
            assertThat(reopened.get(longKey, Scope.PROJECT).orElseThrow().value()).isEqualTo("long");
            assertThat(reopened.get(otherLongKey, Scope.PROJECT).orElseThrow().value()).isEqualTo("other");
        }
    }

    @Test
    void relative_base_path_resolves_against_the_context_base_directory() {
        try (FileMemoryProvider provider = open(store, Map.of("base_path", "memory/store"))) {
            provider.set("k", "v", Scope.GLOBAL);
            assertThat(provider.directory()).isEqualTo(store.resolve("memory/store").toAbsolutePath().normalize());
        }
        assertThat(store.resolve("memory/store/global/k.json")).isRegularFile();
    }

    @Test
    void absolute_base_path_is_used_as_it_is(@TempDir Path elsewhere) {
        try (FileMemoryProvider provider = open(store, Map.of("base_path", elsewhere.toString()))) {
            provider.set("k", "v", Scope.GLOBAL);
        }
        assertThat(elsewhere.resolve("global/k.json")).isRegularFile();
        assertThat(store.resolve("global")).doesNotExist();
    }

    @Test
    void writes_leave_no_temporary_files_behind() {
        try (FileMemoryProvider provider = open(store)) {
            for (int i = 0; i < 20; i++) {
                provider.set("k" + (i % 5), "value " + i, Scope.PROJECT, List.of("t"), Map.of("i", i));
                provider.set("s" + i, "value " + i, Scope.SESSION);
            }
            provider.delete("k1", Scope.PROJECT);
            provider.clear(Scope.SESSION);
            provider.requireGraph().relate(dev.forge.memory.EntryRef.of("k2", Scope.PROJECT),
                    dev.forge.memory.EntryRef.of("k3", Scope.PROJECT), "LINKS");
            provider.requireTransactions().inTransaction(tx -> tx.set("t1", "in a transaction", Scope.PROJECT));
        }
        assertThat(filesUnder(store)).noneMatch(f -> f.endsWith(".tmp"))
                .doesNotContain("session/project-a/session-1/s0.json")
                .contains("project/project-a/k2.json", "project/project-a/t1.json", "relations.json", "journal");
        assertThat(store.resolve("transactions")).isEmptyDirectory();
    }

    @Test
    void a_temporary_file_left_by_a_crash_is_ignored_and_removed_at_open() throws IOException {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("k", "complete", Scope.PROJECT);
        }
        Path leftover = scopeDirectory(store, Scope.PROJECT).resolve(".tmp-00000000deadbeef");
        Files.writeString(leftover, "{\"key\":\"k\",\"val");
        try (FileMemoryProvider provider = open(store)) {
            assertThat(provider.get("k", Scope.PROJECT).orElseThrow().value()).isEqualTo("complete");
            assertThat(provider.query(Query.of("*"))).hasSize(1);
        }
        assertThat(leftover).doesNotExist();
    }

    @Test
    void ending_a_session_removes_its_directory() {
        try (FileMemoryProvider provider = open(store)) {
            provider.set("scratch", "temporary", Scope.SESSION);
            assertThat(scopeDirectory(store, Scope.SESSION)).isDirectory();
            assertThat(provider.endSession()).isEqualTo(1);
        }
        assertThat(scopeDirectory(store, Scope.SESSION)).doesNotExist();
    }
}
