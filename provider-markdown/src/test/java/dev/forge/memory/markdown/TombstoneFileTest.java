package dev.forge.memory.markdown;

import static dev.forge.memory.markdown.Stores.bodyText;
import static dev.forge.memory.markdown.Stores.fileOf;
import static dev.forge.memory.markdown.Stores.frontMatter;
import static dev.forge.memory.markdown.Stores.id;
import static dev.forge.memory.markdown.Stores.memoryFiles;
import static dev.forge.memory.markdown.Stores.open;
import static dev.forge.memory.markdown.Stores.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Capability;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deletions are versions on disk; purge and endSession really remove files. */
class TombstoneFileTest {

    @TempDir
    Path base;

    private static Map<Path, String> contents(List<Path> files) {
        Map<Path, String> contents = new HashMap<>();
        files.forEach(file -> contents.put(file, read(file)));
        return contents;
    }

    private static List<Path> filesOfKey(Path directory, String key) {
        return memoryFiles(directory).stream().filter(f -> key.equals(frontMatter(f).get("key"))).toList();
    }

    @Test
    void delete_writes_a_tombstone_file_superseding_the_head_and_leaves_the_old_files() {
        try (MarkdownMemoryProvider provider = open(base)) {
            assertThat(provider.capabilities()).contains(Capability.TOMBSTONES);
            provider.set("k", "first", Scope.PROJECT);
            provider.set("k", "second", Scope.PROJECT);
            Path directory = provider.projectDirectory();
            Path head = fileOf(directory, "k", 2);
            Map<Path, String> before = contents(memoryFiles(directory));

            assertThat(provider.delete("k", Scope.PROJECT)).isTrue();

            List<Path> after = memoryFiles(directory);
            assertThat(after).hasSize(3).containsAll(before.keySet());
            before.forEach((file, text) -> assertThat(read(file)).as("%s unchanged", file).isEqualTo(text));
            Path tombstone = fileOf(directory, "k", 3);
            Map<String, Object> fields = frontMatter(tombstone);
            assertThat(fields).containsEntry("tombstone", true).containsEntry("supersedes", id(head))
                    .containsEntry("key", "k").containsEntry("id", id(tombstone));
            assertThat(bodyText(read(tombstone)).strip()).isEmpty();

            assertThat(provider.get("k", Scope.PROJECT)).isEmpty();
            assertThat(provider.delete("k", Scope.PROJECT)).isFalse();
            assertThat(memoryFiles(directory)).hasSize(3);
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).extracting(MemoryEntry::value)
                    .containsExactly("first", "second");

            MemoryEntry again = provider.set("k", "after the deletion", Scope.PROJECT);
            assertThat(again.version()).isEqualTo(4);
            assertThat(frontMatter(fileOf(directory, "k", 4))).containsEntry("supersedes", id(tombstone));
        }
        try (MarkdownMemoryProvider reopened = open(base)) {
            assertThat(reopened.get("k", Scope.PROJECT).map(MemoryEntry::value)).contains("after the deletion");
        }
    }

    @Test
    void a_deletion_stays_after_reopening() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("k", "v", Scope.PROJECT);
            provider.delete("k", Scope.PROJECT);
        }
        try (MarkdownMemoryProvider reopened = open(base)) {
            assertThat(reopened.get("k", Scope.PROJECT)).isEmpty();
            assertThat(reopened.requireHistory().versions("k", Scope.PROJECT)).extracting(MemoryEntry::value)
                    .containsExactly("v");
        }
    }

    @Test
    void purge_removes_every_file_of_the_key_and_nothing_else() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("private", "one", Scope.PROJECT);
            provider.set("private", "two", Scope.PROJECT);
            provider.delete("private", Scope.PROJECT);
            provider.set("private", "three", Scope.PROJECT);
            provider.set("other", "stays", Scope.PROJECT);
            provider.set("private", "session copy", Scope.SESSION);
            Path directory = provider.projectDirectory();
            assertThat(filesOfKey(directory, "private")).hasSize(4);
            Map<Path, String> others = contents(filesOfKey(directory, "other"));

            assertThat(provider.requireHistory().purge("private", Scope.PROJECT)).isTrue();

            assertThat(filesOfKey(directory, "private")).isEmpty();
            assertThat(memoryFiles(directory)).containsExactlyInAnyOrderElementsOf(others.keySet());
            others.forEach((file, text) -> assertThat(read(file)).isEqualTo(text));
            assertThat(memoryFiles(provider.sessionDirectory())).hasSize(1);
            assertThat(Stores.namesIn(directory)).noneMatch(name -> name.startsWith(".tmp-"));

            assertThat(provider.get("private", Scope.PROJECT)).isEmpty();
            assertThat(provider.requireHistory().versions("private", Scope.PROJECT)).isEmpty();
            assertThat(provider.requireHistory().purge("private", Scope.PROJECT)).isFalse();
            assertThat(provider.set("private", "fresh", Scope.PROJECT).version()).isEqualTo(1);
            assertThat(frontMatter(fileOf(directory, "private", 1))).doesNotContainKey("supersedes");
        }
    }

    @Test
    void purge_removes_the_relations_of_the_key_both_ways() {
        try (MarkdownMemoryProvider provider = open(base)) {
            EntryRef a = EntryRef.of("a", Scope.PROJECT);
            EntryRef b = EntryRef.of("b", Scope.PROJECT);
            EntryRef c = EntryRef.of("c", Scope.PROJECT);
            provider.set("a", "1", Scope.PROJECT);
            provider.set("b", "2", Scope.PROJECT);
            provider.set("c", "3", Scope.PROJECT);
            provider.requireGraph().relate(a, b, "refines");
            provider.requireGraph().relate(b, c, "refines");

            provider.requireHistory().purge("b", Scope.PROJECT);

            assertThat(provider.requireGraph().relations(a, Direction.BOTH)).isEmpty();
            assertThat(provider.requireGraph().relations(c, Direction.BOTH)).isEmpty();
            // A key written again after a purge is a new memory: old links by id do not reach it.
            provider.set("b", "new", Scope.PROJECT);
            assertThat(provider.requireGraph().relations(b, Direction.BOTH)).isEmpty();
            assertThat(memoryFiles(provider.projectDirectory())).extracting(f -> frontMatter(f).get("key"))
                    .containsExactlyInAnyOrder("a", "b", "c");
        }
    }

    @Test
    void purge_of_a_scope_removes_every_file_of_the_scope() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("a", "1", Scope.GLOBAL);
            provider.set("a", "2", Scope.GLOBAL);
            provider.set("b", "1", Scope.GLOBAL);
            provider.delete("b", Scope.GLOBAL);
            provider.set("p", "project", Scope.PROJECT);

            assertThat(provider.requireHistory().purge(Scope.GLOBAL)).isEqualTo(2);

            assertThat(memoryFiles(provider.globalDirectory())).isEmpty();
            assertThat(memoryFiles(provider.projectDirectory())).hasSize(1);
        }
    }

    @Test
    void clear_writes_one_tombstone_per_live_entry() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("a", "1", Scope.PROJECT);
            provider.set("a", "2", Scope.PROJECT);
            provider.set("b", "1", Scope.PROJECT);
            provider.set("gone", "1", Scope.PROJECT);
            provider.delete("gone", Scope.PROJECT);
            provider.set("s", "session", Scope.SESSION);
            Path directory = provider.projectDirectory();
            Map<Path, String> before = contents(memoryFiles(directory));
            assertThat(before).hasSize(5);

            assertThat(provider.clear(Scope.PROJECT)).isEqualTo(2);

            List<Path> added = memoryFiles(directory).stream().filter(f -> !before.containsKey(f)).toList();
            assertThat(added).hasSize(2);
            assertThat(added).allSatisfy(f -> assertThat(frontMatter(f)).containsEntry("tombstone", true));
            assertThat(added).extracting(f -> frontMatter(f).get("key")).containsExactlyInAnyOrder("a", "b");
            assertThat(frontMatter(fileOf(directory, "a", 3))).containsEntry("supersedes", id(fileOf(directory, "a", 2)));
            before.forEach((file, text) -> assertThat(read(file)).isEqualTo(text));
            assertThat(provider.get("a", Scope.PROJECT)).isEmpty();
            assertThat(provider.get("s", Scope.SESSION)).isPresent();
            assertThat(memoryFiles(provider.sessionDirectory())).hasSize(1);

            assertThat(provider.clear(Scope.PROJECT)).isZero();
            assertThat(memoryFiles(directory)).hasSize(7);
        }
    }

    @Test
    void end_session_removes_the_session_directory_with_its_files() throws IOException {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("s1", "one", Scope.SESSION);
            provider.set("s1", "two", Scope.SESSION);
            provider.set("s2", "x", Scope.SESSION);
            provider.delete("s2", Scope.SESSION);
            provider.set("s3", "y", Scope.SESSION);
            provider.set("p", "project", Scope.PROJECT);
            Path session = provider.sessionDirectory();
            assertThat(session).isEqualTo(provider.projectDirectory().resolve("session").resolve(Stores.SESSION));
            assertThat(memoryFiles(session)).hasSize(5);

            assertThat(provider.endSession()).isEqualTo(2);

            assertThat(session).doesNotExist();
            assertThat(provider.get("s1", Scope.SESSION)).isEmpty();
            assertThat(provider.requireHistory().versions("s1", Scope.SESSION)).isEmpty();
            assertThat(memoryFiles(provider.projectDirectory())).hasSize(1);
            assertThat(provider.get("p", Scope.PROJECT)).isPresent();

            // The provider stays usable: a new session memory recreates the directory.
            provider.set("s1", "again", Scope.SESSION);
            assertThat(provider.get("s1", Scope.SESSION).orElseThrow().version()).isEqualTo(1);
            assertThat(memoryFiles(session)).hasSize(1);
        }
    }

    @Test
    void end_session_leaves_other_sessions_alone() {
        try (MarkdownMemoryProvider other = MarkdownMemoryProvider.open(Stores.context(base, "s2"), MarkdownConfig.defaults());
                MarkdownMemoryProvider provider = open(base)) {
            other.set("theirs", "kept", Scope.SESSION);
            provider.set("mine", "removed", Scope.SESSION);

            provider.endSession();

            assertThat(other.sessionDirectory()).isDirectory();
            assertThat(memoryFiles(other.sessionDirectory())).hasSize(1);
            assertThat(other.get("theirs", Scope.SESSION)).isPresent();
        }
    }

    @Test
    void end_session_without_session_memories_changes_nothing() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("p", "project", Scope.PROJECT);
            assertThat(provider.endSession()).isZero();
            assertThat(provider.sessionDirectory()).doesNotExist();
            assertThat(Files.exists(provider.projectDirectory().resolve("session"))).isFalse();
        }
    }
}
