package dev.forge.memory.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.UnsupportedCapabilityException;
import dev.forge.memory.Keys;
import dev.forge.memory.config.Memories;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GLOBAL in one store shared by every project of the user ({@code global_path}, default {@code $FORGE_HOME/file}):
 * seed 004's example across two projects, where the store lives, the one-store form, and the errors of a bad global
 * store, which never touch the project's store.
 */
class SharedGlobalStoreTest {

    @TempDir
    Path work;

    private Path projectA() throws IOException {
        return Files.createDirectories(work.resolve("app-a"));
    }

    private Path projectB() throws IOException {
        return Files.createDirectories(work.resolve("app-b"));
    }

    private Path forgeHome() {
        return work.resolve("forge-home");
    }

    private static void writeSeedConfig(Path project) throws IOException {
        Files.createDirectories(project.resolve(".forge"));
        try (InputStream seed = SharedGlobalStoreTest.class.getResourceAsStream("/seeds/004-per-project-config.yaml")) {
            Files.write(project.resolve(".forge/config.yaml"), seed.readAllBytes());
        }
    }

    private MemoryProvider openWithMemories(Path project) {
        return Memories.builder().projectDirectory(project).environment(Map.of("FORGE_HOME", forgeHome().toString())).open();
    }

    @Test
    void seed_004_global_learning_set_in_one_project_is_found_from_another() throws IOException {
        Path a = projectA();
        Path b = projectB();
        writeSeedConfig(a);
        writeSeedConfig(b);
        MemoryEntry learned;
        try (MemoryProvider memory = openWithMemories(a)) {
            assertThat(memory.name()).isEqualTo("file");
            learned = memory.set("learning:async-file-io",
                    "Always use aiofiles for async file operations. Regular open() blocks.", Scope.GLOBAL,
                    List.of("python", "async", "io"), Map.of());
        }
        try (MemoryProvider memory = openWithMemories(b)) {
            // "Search across all projects": keyword search here; the seed's semantic form says what to do instead.
            assertThat(memory.search(SearchRequest.builder("file operations async python").scopes(Scope.GLOBAL).build()))
                    .extracting(hit -> hit.entry()).containsExactly(learned);
            assertThatThrownBy(() -> memory.search(SearchRequest.builder("file operations async python")
                    .scopes(Scope.GLOBAL).mode(SearchMode.SEMANTIC).build()))
                    .isInstanceOf(UnsupportedCapabilityException.class);
            assertThat(memory.query(Query.of("learning:*", Scope.GLOBAL))).containsExactly(learned);
        }
        assertThat(forgeHome().resolve("file/global/" + Keys.toFileName("learning:async-file-io") + ".json")).isRegularFile();
        assertThat(a.resolve(".forge/memory/global")).doesNotExist();
        assertThat(b.resolve(".forge/memory/global")).doesNotExist();
    }

    @Test
    void nothing_is_created_under_the_forge_home_until_global_is_used() throws IOException {
        try (FileMemoryProvider provider = Stores.openShared(projectA(), "a", forgeHome(), Map.of())) {
            provider.set("p", "project only", Scope.PROJECT);
            assertThat(provider.query(Query.of("*", Scope.PROJECT, Scope.GLOBAL))).hasSize(1);
            assertThat(provider.doctor()).isEmpty();
            assertThat(forgeHome()).doesNotExist();
            provider.set("g", "global", Scope.GLOBAL);
            assertThat(provider.globalDirectory()).isEqualTo(forgeHome().resolve("file").toRealPath());
        }
    }

    @Test
    void a_relative_global_path_resolves_against_the_project_directory_like_base_path() throws IOException {
        Path a = projectA();
        try (FileMemoryProvider provider = Stores.openShared(a, "a", forgeHome(), Map.of("global_path", "../team-memory"))) {
            provider.set("g", "global", Scope.GLOBAL);
        }
        assertThat(work.resolve("team-memory/global/g.json")).isRegularFile();
        assertThat(forgeHome()).doesNotExist();
    }

    @Test
    void global_path_naming_the_project_store_keeps_one_store_for_every_scope() throws IOException {
        Path a = projectA();
        Map<String, String> oneStore = Map.of("base_path", "mem", "global_path", "mem");
        try (FileMemoryProvider provider = Stores.openShared(a, "a", forgeHome(), oneStore)) {
            provider.set("g", "global", Scope.GLOBAL, List.of(), Map.of());
            provider.set("g", "global 2", Scope.GLOBAL);
            provider.set("p", "project", Scope.PROJECT);
            assertThat(provider.globalDirectory()).isEqualTo(provider.directory());
        }
        try (FileMemoryProvider reopened = Stores.openShared(a, "a", forgeHome(), oneStore)) {
            assertThat(reopened.get("g", Scope.GLOBAL).orElseThrow().version()).isEqualTo(2);
            assertThat(reopened.requireHistory().versions("g", Scope.GLOBAL)).hasSize(2);
            assertThat(reopened.doctor()).isEmpty();
        }
        assertThat(a.resolve("mem/global/g.json")).isRegularFile();
        assertThat(forgeHome()).doesNotExist();
    }

    @Test
    void a_global_path_among_the_project_stores_entries_is_refused_with_what_to_do() throws IOException {
        Path a = projectA();
        assertThatThrownBy(() -> Stores.openShared(a, "a", forgeHome(), Map.of("base_path", "mem", "global_path", "mem/global")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("global_path").hasMessageContaining("base_path").hasMessageContaining("point both");
    }

    @Test
    void a_forge_home_that_is_a_file_fails_global_calls_with_what_to_do_and_leaves_the_project_store_alone() throws IOException {
        Path a = projectA();
        Files.writeString(forgeHome(), "not a directory");
        try (FileMemoryProvider provider = Stores.openShared(a, "a", forgeHome(), Map.of())) {
            provider.set("p", "kept", Scope.PROJECT);
            List<String> before = Stores.filesUnder(provider.directory());
            assertThatThrownBy(() -> provider.set("g", "lost?", Scope.GLOBAL))
                    .isInstanceOf(BackendUnavailableException.class)
                    .hasMessageContaining("global_path").hasMessageContaining(forgeHome().toString());
            assertThat(provider.get("g", Scope.GLOBAL)).as("a read does not create the store, nor fail for lack of it").isEmpty();
            assertThat(provider.get("p", Scope.PROJECT).orElseThrow().value()).isEqualTo("kept");
            assertThat(Stores.filesUnder(provider.directory())).isEqualTo(before);
        }
        assertThat(Files.readString(forgeHome())).isEqualTo("not a directory");
    }

    @Test
    void a_global_path_that_is_a_file_is_named_by_doctor() throws IOException {
        Path a = projectA();
        Path file = Files.writeString(work.resolve("global-file"), "x");
        try (FileMemoryProvider provider = Stores.openShared(a, "a", forgeHome(), Map.of("global_path", file.toString()))) {
            assertThatThrownBy(() -> provider.query(Query.of("*", Scope.GLOBAL)))
                    .isInstanceOf(BackendUnavailableException.class).hasMessageContaining("global_path");
            assertThat(provider.doctor()).extracting(StoreProblem::location).containsExactly(file.toString());
            assertThat(provider.doctor().get(0).problem()).contains("cannot be opened").contains("global_path");
        }
    }

    @Test
    void a_damaged_file_in_the_global_store_is_reported_and_the_project_store_is_unaffected() throws IOException {
        Path a = projectA();
        try (FileMemoryProvider provider = Stores.openShared(a, "a", forgeHome(), Map.of())) {
            provider.set("g", "global", Scope.GLOBAL);
            provider.set("p", "project", Scope.PROJECT);
        }
        Path damaged = forgeHome().resolve("file/global/g.json");
        Files.writeString(damaged, "{ not json");
        try (FileMemoryProvider provider = Stores.openShared(projectB(), "b", forgeHome(), Map.of())) {
            assertThatThrownBy(() -> provider.get("g", Scope.GLOBAL)).isInstanceOf(CorruptEntryException.class)
                    .hasMessageContaining(damaged.getFileName().toString());
            assertThat(provider.doctor()).extracting(StoreProblem::location).anyMatch(l -> l.endsWith("global/g.json"));
        }
        try (FileMemoryProvider provider = Stores.openShared(a, "a", forgeHome(), Map.of())) {
            assertThat(provider.get("p", Scope.PROJECT).orElseThrow().value()).isEqualTo("project");
            assertThat(provider.query(Query.of("*", Scope.PROJECT, Scope.GLOBAL))).extracting(MemoryEntry::key).containsExactly("p");
            MemoryEntry again = provider.set("g", "stored again", Scope.GLOBAL);
            assertThat(again.version()).isEqualTo(1);
        }
    }

    @Test
    void a_global_store_written_gzip_is_read_and_continued_by_a_project_without_compression() throws IOException {
        try (FileMemoryProvider gzip = Stores.openShared(projectA(), "a", forgeHome(), Map.of("compression", "gzip"))) {
            gzip.set("style", "tabs", Scope.GLOBAL);
        }
        assertThat(forgeHome().resolve("file/global/style.json.gz")).isRegularFile();
        try (FileMemoryProvider plain = Stores.openShared(projectB(), "b", forgeHome(), Map.of())) {
            assertThat(plain.get("style", Scope.GLOBAL).orElseThrow().value()).isEqualTo("tabs");
            MemoryEntry spaces = plain.set("style", "spaces", Scope.GLOBAL);
            assertThat(spaces.version()).isEqualTo(2);
            assertThat(plain.requireHistory().versions("style", Scope.GLOBAL)).extracting(MemoryEntry::value)
                    .containsExactly("tabs", "spaces");
            assertThat(plain.doctor()).isEmpty();
        }
        assertThat(forgeHome().resolve("file/global/style.json")).isRegularFile();
        assertThat(forgeHome().resolve("file/global/style.json.gz")).doesNotExist();
    }

    @Test
    void queries_and_searches_over_several_scopes_merge_both_stores_as_one_corpus() throws IOException {
        try (FileMemoryProvider a = Stores.openShared(projectA(), "a", forgeHome(), Map.of());
             FileMemoryProvider b = Stores.openShared(projectB(), "b", forgeHome(), Map.of())) {
            a.set("walrus", "walrus walrus facts", Scope.PROJECT);
            b.set("walrus-global", "walrus facts", Scope.GLOBAL);
            b.set("walrus-b", "walrus of project b", Scope.PROJECT);
            assertThat(a.query(Query.of("walrus*", Scope.PROJECT, Scope.GLOBAL))).extracting(MemoryEntry::key)
                    .containsExactlyInAnyOrder("walrus", "walrus-global");
            assertThat(a.search(SearchRequest.builder("walrus").scopes(Scope.PROJECT, Scope.GLOBAL).build()))
                    .extracting(hit -> hit.entry().key()).containsExactly("walrus", "walrus-global");
            assertThat(a.endSession()).isZero();
            assertThat(b.get("walrus-global", Scope.GLOBAL)).isPresent();
        }
    }
}
