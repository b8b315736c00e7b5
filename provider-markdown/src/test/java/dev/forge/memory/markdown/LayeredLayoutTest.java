package dev.forge.memory.markdown;

import static dev.forge.memory.markdown.Stores.frontMatter;
import static dev.forge.memory.markdown.Stores.memoryFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StorageException;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.support.ByteSize;
import dev.forge.memory.spi.ProviderConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The layered layout: an existing Forge plugin memory directory opens as it is, a layered key's current value is its
 * document byte for byte, edits and removals by other tools are seen and kept in history, and no key reaches a file
 * outside its place.
 */
class LayeredLayoutTest {

    static final String HEADER = "<!-- Last Updated: 2026-02-10 -->\n\n";
    static final Instant PLUGIN_TIME = Instant.parse("2026-02-10T09:30:00Z");

    /** The plugin's memories, by key, as the adapter's examples place them. */
    static final Map<String, String> PLUGIN_MEMORIES = plugin();

    @TempDir
    Path base;

    private static Map<String, String> plugin() {
        Map<String, String> memories = new LinkedHashMap<>();
        memories.put("projects/my-api/project_profile", HEADER + "# Project Profile - My API\n\n- FastAPI service\n");
        memories.put("skills/python-code-review/my-api/project_overview",
                HEADER + "# Project Overview - My API\n\n## Framework\n- FastAPI 0.104\n");
        memories.put("skills/python-code-review/my-api/review_history",
                HEADER + "# Review History\n\n## Review 2026-02-09\n- N+1 query in /orders\n");
        memories.put("skills/dotnet-code-review/e-commerce/known_issues",
                HEADER + "# Known Issues\n\n### Missing CancellationToken\n**Status**: In Progress\n");
        memories.put("commands/my-api/command_history", HEADER + "# Command History\n\n- /analyze 2026-02-10\n");
        memories.put("agents/hephaestus/forge_insights", HEADER + "# Forge Insights\n\nPrefer small skills.\r\n");
        return Map.copyOf(memories);
    }

    private Path memory() {
        return base.resolve("memory");
    }

    static MarkdownConfig layered(String path) {
        return new MarkdownConfig(path, null, null, false, MarkdownConfig.Layout.LAYERED);
    }

    private MarkdownMemoryProvider open() {
        return Stores.open(base, layered("memory"));
    }

    /** Writes the plugin's directory: the memories, structural files at several levels, and a stray note. */
    private void writePluginDirectory() throws IOException {
        Map<String, String> files = new TreeMap<>();
        PLUGIN_MEMORIES.forEach((key, value) -> files.put(key + ".md", value));
        for (String structural : List.of("index.md", "lifecycle.md", "quality_guidance.md", "projects/index.md",
                "skills/python-code-review/index.md", "skills/python-code-review/my-api/index.md",
                "skills/python-code-review/my-api/lifecycle.md", "agents/hephaestus/quality_guidance.md")) {
            files.put(structural, HEADER + "# " + structural + "\n\nStructure, not a memory.\n");
        }
        files.put("notes/readme.md", HEADER + "A note someone left.\n");
        for (Map.Entry<String, String> file : files.entrySet()) {
            Path path = memory().resolve(file.getKey());
            Files.createDirectories(path.getParent());
            Files.writeString(path, file.getValue(), StandardCharsets.UTF_8);
            Files.setLastModifiedTime(path, FileTime.from(PLUGIN_TIME));
        }
    }

    /** Every file and directory under {@code root} with its content (files) and modification time. */
    static Map<String, String> snapshot(Path root) {
        Map<String, String> state = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path path : all.toList()) {
                String content = Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)
                        ? Arrays.toString(Files.readAllBytes(path)) : "<dir>";
                state.put(root.relativize(path).toString(), content + " @ "
                        + Files.getLastModifiedTime(path, LinkOption.NOFOLLOW_LINKS));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return state;
    }

    /** The regular files under {@code root}, relative, {@code /}-separated, sorted. */
    static List<String> filesUnder(Path root) {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .map(p -> root.relativize(p).toString().replace('\\', '/')).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path document(String key) {
        return memory().resolve(key + ".md");
    }

    private static List<String> values(MemoryProvider provider, String key) {
        return provider.requireHistory().versions(key, Scope.PROJECT).stream().map(MemoryEntry::value).toList();
    }

    private static List<Long> versions(MemoryProvider provider, String key) {
        return provider.requireHistory().versions(key, Scope.PROJECT).stream().map(MemoryEntry::version).toList();
    }

    // ---- an existing plugin directory

    @Test
    void an_existing_plugin_directory_opens_as_it_is_and_opening_changes_nothing() throws IOException {
        writePluginDirectory();
        Map<String, String> before = snapshot(base);

        try (MarkdownMemoryProvider provider = open()) {
            for (Map.Entry<String, String> memory : PLUGIN_MEMORIES.entrySet()) {
                MemoryEntry entry = provider.get(memory.getKey(), Scope.PROJECT).orElseThrow();
                assertThat(entry.value()).as(memory.getKey()).isEqualTo(memory.getValue());
                assertThat(entry.version()).isEqualTo(1);
                assertThat(entry.createdAt()).isEqualTo(PLUGIN_TIME);
                assertThat(entry.updatedAt()).isEqualTo(PLUGIN_TIME);
                assertThat(entry.tags()).isEmpty();
                assertThat(values(provider, memory.getKey())).containsExactly(memory.getValue());
            }
            assertThat(provider.query(Query.of("*", Scope.PROJECT))).extracting(MemoryEntry::key)
                    .containsExactlyInAnyOrderElementsOf(PLUGIN_MEMORIES.keySet());
            assertThat(provider.query(Query.of("skills/python-code-review/my-api/*", Scope.PROJECT)))
                    .extracting(MemoryEntry::key).containsExactlyInAnyOrder(
                            "skills/python-code-review/my-api/project_overview",
                            "skills/python-code-review/my-api/review_history");
            assertThat(provider.search(SearchRequest.keyword("CancellationToken"))).extracting(h -> h.entry().key())
                    .containsExactly("skills/dotnet-code-review/e-commerce/known_issues");
            assertThat(provider.get("skills/python-code-review/my-api/index", Scope.PROJECT)).isEmpty();
            assertThat(provider.get("index", Scope.PROJECT)).isEmpty();
            assertThat(provider.get("notes/readme", Scope.PROJECT)).isEmpty();

            List<StoreProblem> problems = provider.doctor();
            assertThat(problems).hasSize(1);
            assertThat(problems.get(0).location()).isEqualTo(memory().resolve("notes/readme.md").toString());
            assertThat(problems.get(0).problem()).startsWith("not a layered memory path");
            provider.refresh();
        }
        assertThat(snapshot(base)).isEqualTo(before);
        assertThat(memory().resolve(".forge")).doesNotExist();
    }

    @Test
    void the_first_write_to_a_plugin_memory_keeps_the_file_as_version_1() throws IOException {
        writePluginDirectory();
        String key = "skills/python-code-review/my-api/review_history";
        String next = PLUGIN_MEMORIES.get(key) + "\n## Review 2026-02-11\n- Fixed\n";
        try (MarkdownMemoryProvider provider = open()) {
            MemoryEntry written = provider.set(key, next, Scope.PROJECT, List.of("review"), Map.of());
            assertThat(written.version()).isEqualTo(2);
            assertThat(written.createdAt()).isEqualTo(PLUGIN_TIME);
            assertThat(Files.readString(document(key))).isEqualTo(next);
            assertThat(values(provider, key)).containsExactly(PLUGIN_MEMORIES.get(key), next);
            assertThat(versions(provider, key)).containsExactly(1L, 2L);
        }
        try (MarkdownMemoryProvider reopened = open()) {
            assertThat(values(reopened, key)).containsExactly(PLUGIN_MEMORIES.get(key), next);
            assertThat(reopened.get(key, Scope.PROJECT).orElseThrow().tags()).containsExactly("review");
            assertThat(reopened.doctor()).extracting(StoreProblem::location)
                    .containsExactly(memory().resolve("notes/readme.md").toString());
        }
        // The other documents and the structural files are untouched.
        for (String other : PLUGIN_MEMORIES.keySet()) {
            if (!other.equals(key)) {
                assertThat(Files.getLastModifiedTime(document(other)).toInstant()).isEqualTo(PLUGIN_TIME);
            }
        }
    }

    // ---- writing

    @Test
    void set_writes_exactly_the_document_and_a_chain_in_the_hidden_directory() throws IOException {
        String key = "skills/python-code-review/my-api/review_history";
        String value = HEADER + "# Review History\n\n## Review 1\n- ok\n";
        try (MarkdownMemoryProvider provider = open()) {
            assertThat(provider.projectDirectory()).isEqualTo(memory());
            assertThat(provider.versionDirectory()).isEqualTo(memory().resolve(".forge/versions"));
            assertThat(provider.sessionDirectory()).isEqualTo(memory().resolve(".forge/versions/session/s1"));

            MemoryEntry entry = provider.set(key, value, Scope.PROJECT, List.of("review"), Map.of("n", 1));
            assertThat(entry.version()).isEqualTo(1);
            assertThat(Files.readAllBytes(document(key))).isEqualTo(value.getBytes(StandardCharsets.UTF_8));
            Path versionFile = memoryFiles(provider.versionDirectory()).get(0);
            assertThat(frontMatter(versionFile)).containsEntry("key", key).containsEntry("version", 1);
            assertThat(Stores.bodyText(Stores.read(versionFile))).isEqualTo(value + "\n");

            String second = HEADER + "# Review History\n\n## Review 1\n- ok\n## Review 2\n- fine\n";
            assertThat(provider.set(key, second, Scope.PROJECT, List.of("review"), Map.of("n", 1)).version())
                    .isEqualTo(2);
            assertThat(Files.readString(document(key))).isEqualTo(second);
            assertThat(values(provider, key)).containsExactly(value, second);
            provider.set("session-note", "only in the session", Scope.SESSION);
        }
        assertThat(filesUnder(memory())).hasSize(6).contains(".lock", ".generation", key + ".md")
                .allMatch(name -> name.equals(key + ".md") || name.startsWith("."));
        assertThat(memoryFiles(memory().resolve(".forge/versions"))).hasSize(2);
        assertThat(memoryFiles(memory().resolve(".forge/versions/session/s1"))).hasSize(1);
        try (MarkdownMemoryProvider reopened = open()) {
            MemoryEntry entry = reopened.get(key, Scope.PROJECT).orElseThrow();
            assertThat(entry.version()).isEqualTo(2);
            assertThat(entry.tags()).containsExactly("review");
            assertThat(entry.metadata()).containsEntry("n", 1L);
            assertThat(reopened.doctor()).isEmpty();
        }
    }

    @Test
    void documents_are_0600_and_their_directories_0700() throws IOException {
        assumeTrue(base.getFileSystem().supportedFileAttributeViews().contains("posix"), "POSIX permissions");
        String key = "skills/python-code-review/my-api/project_overview";
        try (MarkdownMemoryProvider provider = open()) {
            provider.set(key, HEADER + "# Overview\n", Scope.PROJECT);
        }
        assertThat(Files.getPosixFilePermissions(document(key))).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        for (Path directory : List.of(memory().resolve("skills"), memory().resolve("skills/python-code-review"),
                memory().resolve("skills/python-code-review/my-api"), memory().resolve(".forge/versions"))) {
            assertThat(Files.getPosixFilePermissions(directory)).as("%s", directory)
                    .isEqualTo(PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void a_non_layered_key_creates_no_file_outside_the_hidden_directory_and_dot_dot_never_escapes() {
        List<String> keys = List.of("build-tool", "projects/my-api", "projects/my-api/notes/extra",
                "skills/a/b/index", "projects/my-api/lifecycle", "projects/../../escape", "projects/my-api/../../x",
                "projects/../x", "agents/..hidden/x", "agents/a/x.", "commands/.git/config", "/projects/a/b",
                "projects//b", "projects/a/b\\c", "Projects/a/b", "projects/a b/c");
        try (MarkdownMemoryProvider provider = open()) {
            for (String key : keys) {
                provider.set(key, "value of " + key, Scope.PROJECT);
            }
            for (String key : keys) {
                assertThat(provider.get(key, Scope.PROJECT).map(MemoryEntry::value)).contains("value of " + key);
            }
            assertThat(provider.doctor()).isEmpty();
        }
        assertThat(filesUnder(base)).allMatch(name -> name.startsWith("memory/.forge/versions/mem_")
                || name.equals("memory/.lock") || name.equals("memory/.generation"));
        assertThat(memoryFiles(memory().resolve(".forge/versions"))).hasSize(keys.size());
        try (MarkdownMemoryProvider reopened = open()) {
            assertThat(reopened.query(Query.of("*", Scope.PROJECT))).hasSize(keys.size());
        }
    }

    @Test
    void global_memories_keep_the_standard_layout() {
        try (MarkdownMemoryProvider provider = open()) {
            provider.set("projects/my-api/project_profile", "global profile", Scope.GLOBAL);
        }
        assertThat(memoryFiles(base.resolve("home/memory"))).hasSize(1);
        assertThat(base.resolve("home/memory/projects")).doesNotExist();
        assertThat(memory().resolve("projects")).doesNotExist();
    }

    // ---- other tools

    @Test
    void an_edit_by_another_tool_is_seen_after_refresh_as_the_next_version_and_kept_in_history() throws IOException {
        String key = "projects/my-api/project_profile";
        String first = HEADER + "# Profile\n\nPython 3.11\n";
        String edited = "<!-- Last Updated: 2026-02-12 -->\n\n# Profile\n\nPython 3.12\n";
        String third = "<!-- Last Updated: 2026-02-13 -->\n\n# Profile\n\nPython 3.12, uv\n";
        try (MarkdownMemoryProvider provider = open()) {
            MemoryEntry written = provider.set(key, first, Scope.PROJECT, List.of("profile"), Map.of("owner", "a"));
            Files.writeString(document(key), edited, StandardCharsets.UTF_8);
            Instant editTime = written.updatedAt().plusSeconds(3600);
            Files.setLastModifiedTime(document(key), FileTime.from(editTime));
            provider.refresh();

            MemoryEntry entry = provider.get(key, Scope.PROJECT).orElseThrow();
            assertThat(entry.value()).isEqualTo(edited);
            assertThat(entry.version()).isEqualTo(2);
            assertThat(entry.updatedAt()).isEqualTo(editTime);
            assertThat(entry.createdAt()).isEqualTo(written.createdAt());
            assertThat(entry.tags()).containsExactly("profile");
            assertThat(entry.metadata()).containsEntry("owner", "a");
            assertThat(memoryFiles(provider.versionDirectory())).as("reads write nothing").hasSize(1);

            MemoryEntry next = provider.set(key, third, Scope.PROJECT);
            assertThat(next.version()).isEqualTo(3);
            assertThat(values(provider, key)).containsExactly(first, edited, third);
            assertThat(versions(provider, key)).containsExactly(1L, 2L, 3L);
            assertThat(Files.readString(document(key))).isEqualTo(third);
        }
        try (MarkdownMemoryProvider reopened = open()) {
            assertThat(values(reopened, key)).containsExactly(first, edited, third);
        }
    }

    @Test
    void an_edit_while_closed_is_seen_at_the_next_open_and_a_save_by_rename_at_the_next_call() throws IOException {
        String key = "commands/my-api/command_history";
        try (MarkdownMemoryProvider provider = open()) {
            provider.set(key, HEADER + "- /analyze\n", Scope.PROJECT);
        }
        Files.writeString(document(key), HEADER + "- /analyze\n- /review\n");
        try (MarkdownMemoryProvider provider = open()) {
            MemoryEntry entry = provider.get(key, Scope.PROJECT).orElseThrow();
            assertThat(entry.value()).isEqualTo(HEADER + "- /analyze\n- /review\n");
            assertThat(entry.version()).isEqualTo(2);

            Stores.saveByRename(document(key), HEADER + "- /analyze\n- /review\n- /test\n");
            entry = provider.get(key, Scope.PROJECT).orElseThrow();
            assertThat(entry.value()).isEqualTo(HEADER + "- /analyze\n- /review\n- /test\n");
            assertThat(entry.version()).isEqualTo(2);
        }
    }

    @Test
    void a_write_rechecks_the_document_so_an_edit_in_place_is_never_overwritten_unseen() throws IOException {
        String key = "agents/hephaestus/forge_insights";
        try (MarkdownMemoryProvider provider = open()) {
            provider.set(key, HEADER + "one\n", Scope.PROJECT);
            Files.writeString(document(key), HEADER + "one, edited in place\n");
            Files.setLastModifiedTime(document(key), FileTime.from(Instant.parse("2026-02-11T00:00:00Z")));
            provider.set(key, HEADER + "two\n", Scope.PROJECT);
            assertThat(values(provider, key)).containsExactly(HEADER + "one\n", HEADER + "one, edited in place\n",
                    HEADER + "two\n");
        }
    }

    @Test
    void a_document_removed_by_another_tool_reads_as_deleted_and_the_next_write_records_the_deletion() {
        String key = "skills/dotnet-code-review/e-commerce/known_issues";
        try (MarkdownMemoryProvider provider = open()) {
            provider.set(key, HEADER + "none\n", Scope.PROJECT);
            Stores.delete(document(key));

            assertThat(provider.get(key, Scope.PROJECT)).isEmpty();
            assertThat(provider.query(Query.of("*", Scope.PROJECT))).isEmpty();
            assertThat(provider.delete(key, Scope.PROJECT)).isFalse();

            MemoryEntry again = provider.set(key, HEADER + "one issue\n", Scope.PROJECT);
            assertThat(again.version()).isEqualTo(3);
            assertThat(values(provider, key)).containsExactly(HEADER + "none\n", HEADER + "one issue\n");
            assertThat(versions(provider, key)).containsExactly(1L, 3L);
            assertThat(memoryFiles(provider.versionDirectory())).extracting(f -> frontMatter(f).get("tombstone"))
                    .containsExactlyInAnyOrder(null, true, null);
        }
    }

    @Test
    void a_document_a_person_creates_is_a_new_memory() throws IOException {
        try (MarkdownMemoryProvider provider = open()) {
            provider.set("projects/my-api/project_profile", HEADER + "profile\n", Scope.PROJECT);
            Path created = memory().resolve("projects/my-api/technology_stack.md");
            Stores.create(created, (HEADER + "- Python\n").getBytes(StandardCharsets.UTF_8));
            MemoryEntry entry = provider.get("projects/my-api/technology_stack", Scope.PROJECT).orElseThrow();
            assertThat(entry.value()).isEqualTo(HEADER + "- Python\n");
            assertThat(entry.version()).isEqualTo(1);
            assertThat(entry.createdAt()).isEqualTo(Files.getLastModifiedTime(created).toInstant()
                    .truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
        }
    }

    // ---- delete, clear, purge, restore, relations

    @Test
    void delete_clear_purge_and_restore_keep_the_documents_in_step() throws IOException {
        String a = "skills/python-code-review/my-api/review_history";
        String b = "projects/my-api/project_profile";
        try (MarkdownMemoryProvider provider = open()) {
            provider.set(a, "a1", Scope.PROJECT);
            provider.set(b, "b1", Scope.PROJECT);
            provider.set("plain", "p1", Scope.PROJECT);

            assertThat(provider.delete(a, Scope.PROJECT)).isTrue();
            assertThat(document(a)).doesNotExist();
            assertThat(document(b)).exists();
            assertThat(provider.get(a, Scope.PROJECT)).isEmpty();

            assertThat(provider.clear(Scope.PROJECT)).isEqualTo(2);
            assertThat(document(b)).doesNotExist();
            assertThat(provider.query(Query.of("*", Scope.PROJECT))).isEmpty();
            assertThat(values(provider, b)).containsExactly("b1");

            provider.set(a, "a2", Scope.PROJECT);
            assertThat(Files.readString(document(a))).isEqualTo("a2");
            assertThat(provider.requireHistory().purge(a, Scope.PROJECT)).isTrue();
            assertThat(document(a)).doesNotExist();
            assertThat(provider.requireHistory().versions(a, Scope.PROJECT)).isEmpty();
            assertThat(memoryFiles(provider.versionDirectory())).extracting(f -> frontMatter(f).get("key"))
                    .doesNotContain(a);

            Instant t = Instant.parse("2026-01-01T00:00:00Z");
            List<MemoryEntry> chain = List.of(
                    new MemoryEntry(a, "restored 1", Scope.PROJECT, List.of(), Map.of(), t, t, 1),
                    new MemoryEntry(a, "restored 2", Scope.PROJECT, List.of("r"), Map.of(), t, t.plusSeconds(60), 2));
            provider.set(a, "before the restore", Scope.PROJECT);
            assertThat(provider.requireRestoring().restore(chain).value()).isEqualTo("restored 2");
            assertThat(Files.readString(document(a))).isEqualTo("restored 2");
            assertThat(provider.requireHistory().versions(a, Scope.PROJECT)).isEqualTo(chain);

            provider.set(b, "b2", Scope.PROJECT);
            assertThat(provider.requireHistory().purge(Scope.PROJECT)).isEqualTo(3);
            assertThat(document(a)).doesNotExist();
            assertThat(document(b)).doesNotExist();
            assertThat(memoryFiles(provider.versionDirectory())).isEmpty();
            assertThat(provider.doctor()).isEmpty();
        }
    }

    @Test
    void relations_survive_edits_of_the_documents_by_other_tools() throws IOException {
        String a = "skills/python-code-review/my-api/review_history";
        String b = "projects/my-api/project_profile";
        try (MarkdownMemoryProvider provider = open()) {
            provider.set(a, "a1", Scope.PROJECT);
            Files.createDirectories(document(b).getParent());
            Files.writeString(document(b), "written by the plugin"); // b exists only as a document
            provider.refresh();
            provider.requireGraph().relate(EntryRef.of(a, Scope.PROJECT), EntryRef.of(b, Scope.PROJECT), "refines");
            provider.set("g", "global", Scope.GLOBAL);
            provider.requireGraph().relate(EntryRef.of("g", Scope.GLOBAL), EntryRef.of(b, Scope.PROJECT), "relates_to");

            Files.writeString(document(a), "a edited");
            Files.writeString(document(b), "b edited");
            provider.refresh();
            assertThat(provider.requireGraph().relations(EntryRef.of(a, Scope.PROJECT), dev.forge.memory.Direction.OUTGOING))
                    .extracting(r -> r.to().key()).containsExactly(b);
            assertThat(provider.requireGraph().relations(EntryRef.of(b, Scope.PROJECT), dev.forge.memory.Direction.INCOMING))
                    .extracting(r -> r.from().key()).containsExactlyInAnyOrder(a, "g");
            assertThat(values(provider, b)).containsExactly("written by the plugin", "b edited");
        }
    }

    // ---- keys that would share a file, links, unreadable documents

    @Test
    void a_key_differing_only_in_case_from_an_existing_document_is_refused_where_the_file_system_ignores_case()
            throws IOException {
        try (MarkdownMemoryProvider provider = open()) {
            provider.set("projects/My-Api/notes", "upper", Scope.PROJECT);
            boolean caseInsensitive = Files.exists(memory().resolve("projects/my-api/notes.md"));
            if (caseInsensitive) {
                assertThatThrownBy(() -> provider.set("projects/my-api/notes", "lower", Scope.PROJECT))
                        .isInstanceOf(InvalidKeyException.class).hasMessageContaining("My-Api");
                assertThat(provider.get("projects/my-api/notes", Scope.PROJECT)).isEmpty();
                assertThat(provider.requireHistory().purge("projects/my-api/notes", Scope.PROJECT)).isFalse();
            } else {
                // Here the two keys are two files; the check itself is tested by DocumentsTest.
                provider.set("projects/my-api/notes", "lower", Scope.PROJECT);
                assertThat(Files.readString(memory().resolve("projects/my-api/notes.md"))).isEqualTo("lower");
            }
            assertThat(Files.readString(memory().resolve("projects/My-Api/notes.md"))).isEqualTo("upper");
            assertThat(provider.get("projects/My-Api/notes", Scope.PROJECT).orElseThrow().value()).isEqualTo("upper");
        }
    }

    @Test
    void a_document_path_through_a_symbolic_link_is_refused_and_nothing_is_written_there() throws IOException {
        Path elsewhere = Files.createDirectories(base.resolve("elsewhere"));
        Files.createDirectories(memory().resolve("projects"));
        Files.createSymbolicLink(memory().resolve("projects/linked"), elsewhere);
        try (MarkdownMemoryProvider provider = open()) {
            assertThatThrownBy(() -> provider.set("projects/linked/profile", "x", Scope.PROJECT))
                    .isInstanceOf(StorageException.class).hasMessageContaining("symbolic link");
            assertThat(provider.get("projects/linked/profile", Scope.PROJECT)).isEmpty();
        }
        try (Stream<Path> files = Files.list(elsewhere)) {
            assertThat(files.toList()).isEmpty();
        }
    }

    @Test
    void unreadable_documents_are_listed_by_doctor_skipped_and_never_overwritten() throws IOException {
        Path bad = memory().resolve("agents/hephaestus/latin1.md");
        Path big = memory().resolve("agents/hephaestus/huge.md");
        Files.createDirectories(bad.getParent());
        byte[] latin1 = "caf\u00e9 notes".getBytes(StandardCharsets.ISO_8859_1);
        Files.write(bad, latin1);
        Files.write(big, new byte[70 * 1024]);
        MarkdownConfig config = new MarkdownConfig("memory", null, ByteSize.ofBytes(64 * 1024), false,
                MarkdownConfig.Layout.LAYERED);
        try (MarkdownMemoryProvider provider = Stores.open(base, config)) {
            // The document holds the current value: it cannot be read, so neither can the key.
            assertThatThrownBy(() -> provider.get("agents/hephaestus/latin1", Scope.PROJECT))
                    .isInstanceOf(CorruptEntryException.class).hasMessageContaining(bad.toString());
            assertThatThrownBy(() -> provider.get("agents/hephaestus/huge", Scope.PROJECT))
                    .isInstanceOf(CorruptEntryException.class).hasMessageContaining(big.toString());
            assertThat(provider.query(Query.of("*", Scope.PROJECT))).isEmpty();
            List<StoreProblem> problems = provider.doctor();
            assertThat(problems).extracting(StoreProblem::location).containsExactly(big.toString(), bad.toString());
            assertThat(problems.get(0).problem()).startsWith("larger than max_file_size");
            assertThat(problems.get(1).problem()).contains("not valid UTF-8");
            assertThatThrownBy(() -> provider.set("agents/hephaestus/latin1", "new", Scope.PROJECT))
                    .isInstanceOf(CorruptEntryException.class).hasMessageContaining(bad.toString())
                    .hasMessageContaining("UTF-8");
            assertThat(Files.readAllBytes(bad)).isEqualTo(latin1);
        }
    }

    @Test
    void version_files_of_the_standard_layout_are_reported_and_read_once_moved_to_the_version_directory()
            throws IOException {
        try (MarkdownMemoryProvider standard = Stores.open(base, new MarkdownConfig("memory", null, null, false))) {
            standard.set("build-tool", "Maven", Scope.PROJECT);
        }
        Path old = memoryFiles(memory()).get(0);
        try (MarkdownMemoryProvider provider = open()) {
            assertThat(provider.get("build-tool", Scope.PROJECT)).isEmpty();
            assertThat(provider.doctor()).singleElement().satisfies(problem -> {
                assertThat(problem.location()).isEqualTo(old.toString());
                assertThat(problem.problem()).contains("standard layout").contains(".forge/versions");
            });
        }
        Files.createDirectories(memory().resolve(".forge/versions"));
        Files.move(old, memory().resolve(".forge/versions").resolve(old.getFileName()));
        try (MarkdownMemoryProvider provider = open()) {
            assertThat(provider.get("build-tool", Scope.PROJECT).map(MemoryEntry::value)).contains("Maven");
            assertThat(provider.doctor()).isEmpty();
        }
    }

    // ---- configuration

    @Test
    void the_layout_key_is_bound_and_an_unknown_layout_is_refused_with_the_two_names() {
        MarkdownMemoryProviderFactory factory = new MarkdownMemoryProviderFactory();
        try (MemoryProvider provider = factory.open(Stores.context(base).withConfig(ProviderConfig.of(Map.of(
                "path", "memory", "layout", "Layered"))))) {
            provider.set("agents/hephaestus/forge_insights", "insight", Scope.PROJECT);
        }
        assertThat(document("agents/hephaestus/forge_insights")).hasContent("insight");
        assertThatThrownBy(() -> factory.open(Stores.context(base).withConfig(ProviderConfig.of(Map.of(
                "layout", "plugin")))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("layout")
                .hasMessageContaining("standard").hasMessageContaining("layered");
        assertThat(MarkdownConfig.defaults().layout()).isEqualTo(MarkdownConfig.Layout.STANDARD);
        List<String> ids = new ArrayList<>();
        for (MarkdownConfig.Layout layout : MarkdownConfig.Layout.values()) {
            ids.add(layout.id());
        }
        assertThat(ids).containsExactly("standard", "layered");
    }

    @Test
    void a_write_never_replaces_a_same_size_edit_made_within_one_tick_of_the_file_time() throws IOException {
        String key = "projects/my-api/project_profile";
        try (MarkdownMemoryProvider provider = open()) {
            provider.set(key, "AAAA original", Scope.PROJECT);
            Path document = memory().resolve(key + ".md");
            FileTime tick = FileTime.fromMillis((System.currentTimeMillis() / 1000) * 1000 - 5000);
            Files.writeString(document, "DDDD hand edit", StandardCharsets.UTF_8);
            Files.setLastModifiedTime(document, tick);
            assertThat(provider.get(key, Scope.PROJECT).orElseThrow().value()).isEqualTo("DDDD hand edit");
            // Another tool saves once more: same size, and a file system with coarse times gives the same time.
            Files.writeString(document, "BBBB hand edit", StandardCharsets.UTF_8);
            Files.setLastModifiedTime(document, tick);

            provider.set(key, "CCCC mine", Scope.PROJECT);

            assertThat(provider.requireHistory().versions(key, Scope.PROJECT)).extracting(MemoryEntry::value)
                    .containsExactly("AAAA original", "BBBB hand edit", "CCCC mine");
        }
    }
}
