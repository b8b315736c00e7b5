package dev.forge.memory.markdown;

import static dev.forge.memory.markdown.Stores.fileOf;
import static dev.forge.memory.markdown.Stores.frontMatter;
import static dev.forge.memory.markdown.Stores.id;
import static dev.forge.memory.markdown.Stores.memoryFiles;
import static dev.forge.memory.markdown.Stores.open;
import static dev.forge.memory.markdown.Stores.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Versions are files linked by {@code supersedes}; chains broken by hand are walked around and reported. */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class VersionChainTest {

    @TempDir
    Path base;

    /** Writes "first", "second" and "third" as versions 1 to 3 of key {@code k} (PROJECT). */
    static void writeThreeVersions(MarkdownMemoryProvider provider) {
        provider.set("k", "first", Scope.PROJECT);
        provider.set("k", "second", Scope.PROJECT);
        provider.set("k", "third", Scope.PROJECT);
    }

    private static String problems(List<StoreProblem> problems) {
        return String.join("\n", problems.stream().map(StoreProblem::toString).toList());
    }

    @Test
    void each_version_file_supersedes_the_previous_one_by_id() {
        try (MarkdownMemoryProvider provider = open(base)) {
            writeThreeVersions(provider);
            Path directory = provider.projectDirectory();
            assertThat(memoryFiles(directory)).hasSize(3);
            Path v1 = fileOf(directory, "k", 1);
            Path v2 = fileOf(directory, "k", 2);
            Path v3 = fileOf(directory, "k", 3);

            Map<String, Object> first = frontMatter(v1);
            assertThat(first).containsEntry("id", id(v1)).containsEntry("key", "k").containsEntry("scope", "repo")
                    .containsEntry("session_id", Stores.SESSION).doesNotContainKey("supersedes")
                    .doesNotContainKey("tombstone");
            assertThat(frontMatter(v2)).containsEntry("id", id(v2)).containsEntry("supersedes", id(v1));
            assertThat(frontMatter(v3)).containsEntry("id", id(v3)).containsEntry("supersedes", id(v2));
            // Every version keeps the first creation time; each has its own update time.
            assertThat(frontMatter(v3).get("created_at")).isEqualTo(first.get("created_at"));
            // Old versions are never changed.
            assertThat(Stores.bodyText(read(v1))).isEqualTo("first\n");
            assertThat(Stores.bodyText(read(v2))).isEqualTo("second\n");
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).extracting(MemoryEntry::value)
                    .containsExactly("first", "second", "third");
        }
    }

    @Test
    void latest_version_from_any_version_id_is_the_current_entry() {
        try (MarkdownMemoryProvider provider = open(base)) {
            writeThreeVersions(provider);
            provider.set("other", "x", Scope.PROJECT);
            Path directory = provider.projectDirectory();
            MemoryEntry current = provider.get("k", Scope.PROJECT).orElseThrow();
            assertThat(current.version()).isEqualTo(3);

            for (long version = 1; version <= 3; version++) {
                assertThat(provider.latestVersion(id(fileOf(directory, "k", version)))).as("from version %s", version)
                        .contains(current);
            }
            assertThat(provider.latestVersion("mem_00000000-0000-4000-8000-000000000000")).isEmpty();

            provider.delete("k", Scope.PROJECT);
            assertThat(provider.latestVersion(id(fileOf(directory, "k", 1)))).isEmpty();
        }
    }

    @Test
    void latest_version_finds_session_and_global_versions_too() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("s", "session 1", Scope.SESSION);
            provider.set("s", "session 2", Scope.SESSION);
            provider.set("g", "global 1", Scope.GLOBAL);
            provider.set("g", "global 2", Scope.GLOBAL);

            assertThat(provider.latestVersion(id(fileOf(provider.sessionDirectory(), "s", 1))).map(MemoryEntry::value))
                    .contains("session 2");
            assertThat(provider.latestVersion(id(fileOf(provider.globalDirectory(), "g", 1))).map(MemoryEntry::value))
                    .contains("global 2");
        }
    }

    @Test
    void a_cycle_made_by_hand_ends_the_walk_and_is_reported() {
        try (MarkdownMemoryProvider provider = open(base)) {
            writeThreeVersions(provider);
            Path directory = provider.projectDirectory();
            Path v1 = fileOf(directory, "k", 1);
            Path v3 = fileOf(directory, "k", 3);

            Stores.saveByRename(v1, Stores.withField(read(v1), "supersedes: " + id(v3) + "\n"));

            List<MemoryEntry> versions = provider.requireHistory().versions("k", Scope.PROJECT);
            assertThat(versions).hasSizeBetween(1, 3);
            assertThat(versions).extracting(MemoryEntry::value).doesNotHaveDuplicates();
            assertThat(provider.get("k", Scope.PROJECT)).isPresent();
            assertThat(provider.query(Query.of("k", Scope.PROJECT))).hasSize(1);
            assertThat(provider.latestVersion(id(v1))).isPresent();
            List<StoreProblem> problems = provider.doctor();
            assertThat(problems(problems)).containsIgnoringCase("cycle").contains("'k'");
            // The provider can still write on top of it.
            assertThat(provider.set("k", "fourth", Scope.PROJECT).value()).isEqualTo("fourth");
            assertThat(provider.get("k", Scope.PROJECT).map(MemoryEntry::value)).contains("fourth");
        }
    }

    @Test
    void a_version_superseding_itself_ends_the_walk_and_is_reported() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("k", "only", Scope.PROJECT);
            Path v1 = fileOf(provider.projectDirectory(), "k", 1);

            Stores.saveByRename(v1, Stores.withField(read(v1), "supersedes: " + id(v1) + "\n"));

            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).extracting(MemoryEntry::value)
                    .containsExactly("only");
            assertThat(provider.get("k", Scope.PROJECT).map(MemoryEntry::value)).contains("only");
            assertThat(problems(provider.doctor())).containsIgnoringCase("cycle");
        }
    }

    @Test
    void a_missing_middle_version_truncates_the_history_and_is_reported() {
        try (MarkdownMemoryProvider provider = open(base)) {
            writeThreeVersions(provider);
            Path directory = provider.projectDirectory();
            Path v1 = fileOf(directory, "k", 1);
            Path v2 = fileOf(directory, "k", 2);

            Stores.delete(v2);

            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).extracting(MemoryEntry::value)
                    .containsExactly("third");
            assertThat(provider.get("k", Scope.PROJECT).map(MemoryEntry::value)).contains("third");
            String problems = problems(provider.doctor());
            assertThat(problems).contains(id(v2)).contains("missing");
            // The orphaned first version is reported too, not silently dropped.
            assertThat(problems).contains(v1.getFileName().toString());
        }
    }

    @Test
    void of_two_versions_superseding_the_same_one_the_newer_is_the_head_and_the_other_is_reported() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("k", "first", Scope.PROJECT);
            provider.set("k", "second", Scope.PROJECT);
            Path directory = provider.projectDirectory();
            Path v2 = fileOf(directory, "k", 2);
            String text = read(v2);
            Map<String, Object> fields = frontMatter(v2);

            // A person copies the head to a new file, gives it a new id and a later time, and edits it.
            Path copy = Stores.newMemoryFile(directory);
            String copied = text.replace("id: " + id(v2), "id: " + id(copy))
                    .replace("updated_at: " + fields.get("updated_at"), "updated_at: 2999-01-01T00:00:00.000Z")
                    .replace("\nsecond\n", "\nsecond, edited in a copy\n");
            assertThat(copied).contains(id(copy)).contains("2999-01-01");
            Stores.create(copy, copied.getBytes(StandardCharsets.UTF_8));

            assertThat(provider.get("k", Scope.PROJECT).map(MemoryEntry::value)).contains("second, edited in a copy");
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).extracting(MemoryEntry::value)
                    .containsExactly("first", "second, edited in a copy");
            assertThat(problems(provider.doctor())).contains(v2.getFileName().toString())
                    .doesNotContain(copy.getFileName().toString() + " (version");
            assertThat(provider.latestVersion(id(v2)).map(MemoryEntry::value)).contains("second, edited in a copy");

            // The next write continues from the head that won.
            provider.set("k", "third", Scope.PROJECT);
            assertThat(frontMatter(fileOf(directory, "k", 3))).containsEntry("supersedes", id(copy));
        }
    }

    @Test
    void a_version_renumbered_by_hand_keeps_its_place_on_the_chain() {
        try (MarkdownMemoryProvider provider = open(base)) {
            writeThreeVersions(provider);
            Path v1 = fileOf(provider.projectDirectory(), "k", 1);

            // The chain is the supersedes links, not the numbers: a wrong number moves nothing.
            Stores.saveByRename(v1, read(v1).replace("\nversion: 1\n", "\nversion: 7\n"));

            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).extracting(MemoryEntry::value)
                    .containsExactly("first", "second", "third");
            assertThat(provider.get("k", Scope.PROJECT).map(MemoryEntry::value)).contains("third");
        }
    }
}
