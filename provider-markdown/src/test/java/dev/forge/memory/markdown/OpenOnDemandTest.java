package dev.forge.memory.markdown;

import static dev.forge.memory.markdown.Stores.fileOf;
import static dev.forge.memory.markdown.Stores.open;
import static dev.forge.memory.markdown.Stores.projectDirectory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A provider opened on a store reads a key's files only when a call needs that key, and every file only when a call
 * needs every entry (query, search, doctor): a {@code forge-memory get} costs the files of one key, not the store's.
 * The count of files read is the provider's own, not a stand-in's.
 */
class OpenOnDemandTest {

    private static final int KEYS = 30;

    @TempDir
    Path base;

    private void writeKeys() {
        try (MarkdownMemoryProvider provider = open(base)) {
            for (int i = 0; i < KEYS; i++) {
                provider.set("key-" + i, "value " + i, Scope.PROJECT, List.of("t"), Map.of());
            }
            provider.set("key-3", "value 3, second version", Scope.PROJECT, List.of("t"), Map.of());
            provider.set("global-key", "shared", Scope.GLOBAL, List.of(), Map.of());
        }
    }

    @Test
    void opening_reads_no_memory_file_and_a_get_reads_only_its_keys_file() {
        writeKeys();
        try (MarkdownMemoryProvider provider = open(base)) {
            assertThat(provider.filesRead()).isZero();
            assertThat(provider.get("key-7", Scope.PROJECT)).map(MemoryEntry::value).contains("value 7");
            assertThat(provider.filesRead()).isEqualTo(1);
            // Two versions: both files are the key's, and the head's body is what is shown.
            assertThat(provider.get("key-3", Scope.PROJECT)).map(MemoryEntry::version).contains(2L);
            assertThat(provider.filesRead()).isEqualTo(3);
            assertThat(provider.get("key-7", Scope.PROJECT)).isPresent();
            assertThat(provider.get("absent", Scope.PROJECT)).isEmpty();
            assertThat(provider.get("global-key", Scope.GLOBAL)).map(MemoryEntry::value).contains("shared");
            assertThat(provider.filesRead()).isEqualTo(4);
        }
    }

    @Test
    void set_delete_and_history_of_one_key_read_only_that_keys_files() {
        writeKeys();
        try (MarkdownMemoryProvider provider = open(base)) {
            assertThat(provider.set("key-5", "changed", Scope.PROJECT, List.of(), Map.of()).version()).isEqualTo(2);
            assertThat(provider.delete("key-6", Scope.PROJECT)).isTrue();
            assertThat(provider.requireHistory().versions("key-5", Scope.PROJECT)).extracting(MemoryEntry::value)
                    .containsExactly("value 5", "changed");
            // key-5's first version (and its body, for the history), key-6's head.
            assertThat(provider.filesRead()).isLessThanOrEqualTo(3);
        }
        try (MarkdownMemoryProvider provider = open(base)) {
            assertThat(provider.get("key-5", Scope.PROJECT)).map(MemoryEntry::value).contains("changed");
            assertThat(provider.get("key-6", Scope.PROJECT)).isEmpty();
            assertThat(provider.query(Query.of("*", Scope.PROJECT))).hasSize(KEYS - 1);
        }
    }

    @Test
    void a_get_succeeds_beside_a_damaged_file_of_another_key_which_keeps_its_typed_error() {
        writeKeys();
        Path damaged = fileOf(projectDirectory(base), "key-9", 1);
        Stores.writeInPlace(damaged, "---\nkey: [unclosed\n---\nbroken\n");
        try (MarkdownMemoryProvider provider = open(base)) {
            assertThat(provider.get("key-1", Scope.PROJECT)).map(MemoryEntry::value).contains("value 1");
            assertThatThrownBy(() -> provider.get("key-9", Scope.PROJECT)).isInstanceOf(CorruptEntryException.class)
                    .hasMessageContaining(damaged.getFileName().toString());
            assertThat(provider.query(Query.of("*", Scope.PROJECT))).extracting(MemoryEntry::key)
                    .hasSize(KEYS - 1).doesNotContain("key-9");
            assertThat(provider.doctor()).anySatisfy(problem -> assertThat(problem.location()).contains(
                    damaged.getFileName().toString()));
        }
    }

    @Test
    void a_file_edited_in_place_behind_the_providers_back_is_seen_by_the_next_query() {
        writeKeys();
        try (MarkdownMemoryProvider provider = open(base)) {
            assertThat(provider.get("key-1", Scope.PROJECT)).isPresent();
            Path file = fileOf(projectDirectory(base), "key-2", 1);
            // In place, same length: neither the directory's time nor the file's size moves.
            Stores.writeInPlace(file, Stores.read(file).replace("value 2", "edit! 2"));
            assertThat(provider.query(Query.of("key-2", Scope.PROJECT))).extracting(MemoryEntry::value)
                    .containsExactly("edit! 2");
            assertThat(provider.search(SearchRequest.keyword("edit"))).hasSize(1);
            assertThat(provider.get("key-2", Scope.PROJECT)).map(MemoryEntry::value).contains("edit! 2");
        }
    }

    @Test
    void the_seed_000_chain_beside_written_memories_reads_the_same_by_get_as_by_query() {
        writeKeys();
        SeedFilesTest.placeSeed000Chain(base);
        String key = "coding-preferences/" + SeedFilesTest.V1;
        MemoryEntry byGet;
        try (MarkdownMemoryProvider provider = open(base)) {
            byGet = provider.get(key, Scope.PROJECT).orElseThrow();
            assertThat(byGet.version()).isEqualTo(2);
            assertThat(byGet.value()).isEqualTo("Prefer constructor injection; field injection only in tests.");
            // The seed's files carry no key fingerprint in their names, so they are read with any key; the written
            // memories' files are not.
            assertThat(provider.filesRead()).isEqualTo(3);
        }
        try (MarkdownMemoryProvider provider = open(base)) {
            assertThat(provider.query(Query.of(key, Scope.PROJECT))).containsExactly(byGet);
        }
    }

    /**
     * Seed 002 ("Write Path"): the agent edits the target {@code .md} file, then commits with git. A provider open on
     * the repository reads that file only when asked for it, so the next get and query show the edit, and the commit
     * shows in {@code changedSinceLoad()}.
     */
    @Test
    void a_memory_edited_and_committed_with_git_by_another_tool_is_seen_by_the_next_get() {
        try (MarkdownMemoryProvider provider = GitRepos.openWithGit(base)) {
            provider.set("decisions", "Use constructor injection.", Scope.PROJECT);
            provider.set("preferences", "Short commit messages.", Scope.PROJECT);
        }
        Path project = projectDirectory(base);
        try (MarkdownMemoryProvider provider = GitRepos.openWithGit(base)) {
            assertThat(provider.get("preferences", Scope.PROJECT)).isPresent();
            Path file = fileOf(project, "decisions", 1);
            Stores.writeInPlace(file, Stores.read(file).replace("constructor", "field"));
            GitRepos.commitAsOtherTool(project, "agent: update decisions", GitRepos.relative(project, file));
            assertThat(provider.get("decisions", Scope.PROJECT)).map(MemoryEntry::value)
                    .contains("Use field injection.");
            assertThat(provider.query(Query.of("*", Scope.PROJECT))).extracting(MemoryEntry::value)
                    .containsExactlyInAnyOrder("Use field injection.", "Short commit messages.");
            assertThat(provider.changedSinceLoad().orElseThrow().directories().get(0).committed())
                    .containsExactly(GitRepos.relative(project, file));
        }
    }
}
