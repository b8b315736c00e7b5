package dev.forge.memory.markdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory files exactly as seed 000 (ADR-0044) and seed 003 (the package README) write them, from
 * {@code src/test/resources/seeds/}, placed where those seeds put them and read through the provider.
 */
class SeedFilesTest {

    static final String V1 = "mem_6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f";
    private static final String V2 = "mem_a7b8c9d0-1e2f-4a3b-8c4d-5e6f7a8b9c0d";
    private static final String OTHER = "mem_0a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d";
    private static final String USER = "mem_5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9";
    private static final String SEED3_V1 = "mem_1H8Z7j3fR9x...";
    private static final String SEED3_V2 = "mem_1H8Z9Qk2sT4v";

    @TempDir
    Path base;

    /** Copies a fixture from {@code seeds/} to {@code target}. */
    static void copySeed(String resource, Path target) {
        try (InputStream in = SeedFilesTest.class.getResourceAsStream("/seeds/" + resource)) {
            assertThat(in).as("fixture %s", resource).isNotNull();
            Files.createDirectories(target.getParent());
            Files.write(target, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Seed 000's repo-scope chain and the memory it refines, in {@code .forge/memory/}. */
    static void placeSeed000Chain(Path base) {
        for (String id : List.of(V1, V2, OTHER)) {
            copySeed("000-chain/" + id + ".md", Stores.projectDirectory(base).resolve(id + ".md"));
        }
    }

    @Test
    void the_seed_000_schema_block_is_read_as_a_project_memory_keyed_by_category_and_first_id() {
        copySeed("000-schema.md", Stores.projectDirectory(base).resolve("mem_<uuid>.md"));
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            List<MemoryEntry> all = provider.query(Query.of("*", Scope.PROJECT));
            assertThat(all).extracting(MemoryEntry::key).containsExactly("coding-preferences/mem_<uuid>");
            MemoryEntry entry = all.get(0);
            assertThat(entry.scope()).isEqualTo(Scope.PROJECT);
            assertThat(entry.version()).isEqualTo(1);
            assertThat(entry.value()).isEmpty();
            assertThat(entry.createdAt()).isEqualTo(Instant.parse("2025-01-15T10:30:00Z"));
            assertThat(entry.updatedAt()).isEqualTo(Instant.parse("2025-01-15T14:22:00Z"));
            assertThat(entry.metadata()).containsEntry("category", "coding-preferences")
                    .containsEntry("trigger", "cadence");
            assertThat(provider.doctor()).isEmpty();
        }
    }

    @Test
    void a_seed_000_chain_is_one_memory_whose_history_follows_supersedes() {
        placeSeed000Chain(base);
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            String key = "coding-preferences/" + V1;
            MemoryEntry head = provider.get(key, Scope.PROJECT).orElseThrow();
            // The blank line seed 000's Serialize writes after '---' is not part of the value.
            assertThat(head.value()).isEqualTo("Prefer constructor injection; field injection only in tests.");
            assertThat(head.version()).isEqualTo(2);
            // The memory was created with its first version; this version is the update.
            assertThat(head.createdAt()).isEqualTo(Instant.parse("2025-01-15T10:30:00Z"));
            assertThat(head.updatedAt()).isEqualTo(Instant.parse("2025-01-15T14:22:00Z"));
            assertThat(head.metadata()).containsEntry("category", "coding-preferences")
                    .containsEntry("trigger", "compaction");
            assertThat(provider.requireHistory().versions(key, Scope.PROJECT)).extracting(MemoryEntry::value)
                    .containsExactly("Prefer constructor injection over field injection.",
                            "Prefer constructor injection; field injection only in tests.");
            assertThat(provider.query(Query.of("*", Scope.PROJECT))).extracting(MemoryEntry::key)
                    .containsExactlyInAnyOrder(key, "project-conventions/" + OTHER);
            List<Relation> relations = provider.requireGraph().relations(EntryRef.of(key, Scope.PROJECT),
                    Direction.OUTGOING);
            assertThat(relations).extracting(r -> r.to().key(), Relation::type)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("project-conventions/" + OTHER, "refines"));
            assertThat(provider.latestVersion(V1).map(MemoryEntry::key)).contains(key);
            assertThat(provider.doctor()).isEmpty();
        }
        // Every open, on any machine, derives the same key from the same files.
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            assertThat(provider.get("coding-preferences/" + V1, Scope.PROJECT)).isPresent();
        }
    }

    @Test
    void the_next_version_keeps_category_and_scope_carries_related_and_names_its_predecessor() throws IOException {
        placeSeed000Chain(base);
        String key = "coding-preferences/" + V1;
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            MemoryEntry third = provider.set(key, "Constructor injection everywhere.", Scope.PROJECT);
            assertThat(third.version()).isEqualTo(3);
            assertThat(third.metadata()).containsEntry("category", "coding-preferences");
        }
        Path written = Stores.memoryFiles(Stores.projectDirectory(base)).stream()
                .filter(p -> !List.of(V1, V2, OTHER).contains(Stores.id(p))).findFirst().orElseThrow();
        Map<String, Object> fields = Stores.frontMatter(written);
        assertThat(fields).containsEntry("supersedes", V2).containsEntry("version", 3)
                .containsEntry("category", "coding-preferences").containsEntry("scope", "repo")
                .containsEntry("related", List.of(Map.of("id", OTHER, "relationship", "refines")));
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            assertThat(provider.get(key, Scope.PROJECT).map(MemoryEntry::value))
                    .contains("Constructor injection everywhere.");
            assertThat(provider.requireHistory().versions(key, Scope.PROJECT)).hasSize(3);
            assertThat(provider.doctor()).isEmpty();
        }
    }

    @Test
    void a_user_scope_seed_000_file_in_the_user_directory_is_a_global_memory() {
        copySeed("000-user/" + USER + ".md", base.resolve("home").resolve("memory").resolve(USER + ".md"));
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            assertThat(provider.globalDirectory()).isEqualTo(base.resolve("home").resolve("memory"));
            MemoryEntry entry = provider.get("user-facts/" + USER, Scope.GLOBAL).orElseThrow();
            assertThat(entry.value()).isEqualTo("The user writes British English.");
            assertThat(entry.scope()).isEqualTo(Scope.GLOBAL);
        }
    }

    @Test
    void the_seed_003_example_and_its_next_version_are_one_memory_with_two_versions() {
        Path directory = Stores.projectDirectory(base);
        copySeed("003-chain/" + SEED3_V1 + ".md", directory.resolve(SEED3_V1 + ".md"));
        copySeed("003-chain/" + SEED3_V2 + ".md", directory.resolve(SEED3_V2 + ".md"));
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            List<MemoryEntry> all = provider.query(Query.of("*", Scope.PROJECT));
            assertThat(all).extracting(MemoryEntry::key).containsExactly(SEED3_V1);
            List<MemoryEntry> versions = provider.requireHistory().versions(SEED3_V1, Scope.PROJECT);
            assertThat(versions).extracting(MemoryEntry::version).containsExactly(1L, 2L);
            assertThat(versions).extracting(MemoryEntry::updatedAt).containsExactly(
                    Instant.parse("2024-05-20T12:00:00Z"), Instant.parse("2024-05-21T09:30:00Z"));
            assertThat(versions).extracting(MemoryEntry::value).containsExactly(
                    "This is the Markdown body of the memory, containing the core content.",
                    "This is the second version of the memory, superseding the first.");
            assertThat(versions.get(1).metadata()).containsEntry("references", List.of("doc_1H8XoEa7bCv..."));
            // The example's own predecessor is not among the files: reported, and the history starts at the example.
            assertThat(provider.doctor()).extracting(p -> p.problem()).singleElement().asString()
                    .contains("mem_1H8YpLm9w4q...").contains("missing");
        }
    }

    @Test
    void the_next_version_of_a_seed_003_chain_is_written_in_its_words() {
        Path directory = Stores.projectDirectory(base);
        copySeed("003-chain/" + SEED3_V1 + ".md", directory.resolve(SEED3_V1 + ".md"));
        copySeed("003-chain/" + SEED3_V2 + ".md", directory.resolve(SEED3_V2 + ".md"));
        MemoryEntry third;
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            MemoryEntry head = provider.get(SEED3_V1, Scope.PROJECT).orElseThrow();
            third = provider.set(SEED3_V1, "A third version.", Scope.PROJECT, head.tags(), head.metadata());
            assertThat(third.version()).isEqualTo(3);
        }
        Path written = Stores.memoryFiles(directory).stream()
                .filter(p -> !List.of(SEED3_V1, SEED3_V2).contains(Stores.id(p))).findFirst().orElseThrow();
        Map<String, Object> fields = Stores.frontMatter(written);
        assertThat(fields).containsEntry("supersedes", SEED3_V2).containsEntry("scope", "default")
                .containsEntry("references", List.of("doc_1H8XoEa7bCv..."))
                .doesNotContainKey("metadata");
        assertThat(Instant.parse((String) fields.get("timestamp"))).isEqualTo(third.updatedAt());
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            assertThat(provider.requireHistory().versions(SEED3_V1, Scope.PROJECT)).extracting(MemoryEntry::version)
                    .containsExactly(1L, 2L, 3L);
        }
    }

    @Test
    void a_hand_written_file_with_a_key_and_a_blank_line_after_the_front_matter_reads_without_it() throws IOException {
        Path directory = Stores.projectDirectory(base);
        Files.createDirectories(directory);
        Files.writeString(directory.resolve("mem_hand.md"), "---\nkey: build-tool\n---\n\nWe use Maven.\n",
                StandardCharsets.UTF_8);
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            assertThat(provider.get("build-tool", Scope.PROJECT).map(MemoryEntry::value)).contains("We use Maven.");
        }
    }

    @Test
    void values_starting_with_line_breaks_read_back_exactly() {
        List<String> values = List.of("\nstarts with a line break", "\n\ntwo", "\r\ncrlf first", "\n", "", "x\n");
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            for (int i = 0; i < values.size(); i++) {
                provider.set("v" + i, values.get(i), Scope.PROJECT);
            }
        }
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            for (int i = 0; i < values.size(); i++) {
                assertThat(provider.get("v" + i, Scope.PROJECT).map(MemoryEntry::value)).contains(values.get(i));
            }
        }
    }
}
