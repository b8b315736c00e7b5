package dev.forge.memory.markdown;

import static dev.forge.memory.markdown.Stores.bodyText;
import static dev.forge.memory.markdown.Stores.fileOf;
import static dev.forge.memory.markdown.Stores.frontMatter;
import static dev.forge.memory.markdown.Stores.memoryFiles;
import static dev.forge.memory.markdown.Stores.newMemoryFile;
import static dev.forge.memory.markdown.Stores.open;
import static dev.forge.memory.markdown.Stores.projectDirectory;
import static dev.forge.memory.markdown.Stores.read;
import static dev.forge.memory.markdown.Stores.withField;
import static dev.forge.memory.markdown.Stores.writeInPlace;
import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A person edits the memory files in a text editor while the provider is open, or between two runs. */
class HandEditTest {

    @TempDir
    Path base;

    @Test
    void a_body_edited_in_place_is_returned_after_refresh() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("build-tool", "We use Maven.", Scope.PROJECT);
            Path head = fileOf(provider.projectDirectory(), "build-tool", 1);

            String text = read(head);
            writeInPlace(head, text.replace("We use Maven.", "We use Gradle 8 with the wrapper."));
            provider.refresh();

            MemoryEntry entry = provider.get("build-tool", Scope.PROJECT).orElseThrow();
            assertThat(entry.value()).isEqualTo("We use Gradle 8 with the wrapper.");
            assertThat(entry.version()).isEqualTo(1);
            assertThat(provider.query(Query.of("build-*", Scope.PROJECT))).extracting(MemoryEntry::value)
                    .containsExactly("We use Gradle 8 with the wrapper.");
            assertThat(provider.search(SearchRequest.keyword("gradle"))).extracting(h -> h.entry().key())
                    .containsExactly("build-tool");
            assertThat(provider.requireHistory().versions("build-tool", Scope.PROJECT)).extracting(MemoryEntry::value)
                    .containsExactly("We use Gradle 8 with the wrapper.");
        }
        try (MarkdownMemoryProvider reopened = open(base)) {
            assertThat(reopened.get("build-tool", Scope.PROJECT).orElseThrow().value())
                    .isEqualTo("We use Gradle 8 with the wrapper.");
        }
    }

    @Test
    void a_body_edited_in_place_while_closed_is_returned_at_the_next_open() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("style", "Tabs.", Scope.PROJECT);
        }
        Path head = memoryFiles(projectDirectory(base)).get(0);
        writeInPlace(head, read(head).replace("Tabs.", "Four spaces, never tabs."));
        try (MarkdownMemoryProvider provider = open(base)) {
            assertThat(provider.get("style", Scope.PROJECT).orElseThrow().value()).isEqualTo("Four spaces, never tabs.");
        }
    }

    @Test
    void a_file_saved_by_renaming_over_it_is_seen_at_the_next_call_without_refresh() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("build-tool", "We use Maven.", Scope.PROJECT);
            provider.set("build-tool", "We use Maven 3.9.", Scope.PROJECT);
            assertThat(provider.get("build-tool", Scope.PROJECT).orElseThrow().value()).isEqualTo("We use Maven 3.9.");
            Path head = fileOf(provider.projectDirectory(), "build-tool", 2);

            Stores.saveByRename(head, read(head).replace("We use Maven 3.9.", "We use Maven 3.9 with the wrapper."));

            MemoryEntry entry = provider.get("build-tool", Scope.PROJECT).orElseThrow();
            assertThat(entry.value()).isEqualTo("We use Maven 3.9 with the wrapper.");
            assertThat(entry.version()).isEqualTo(2);
            assertThat(provider.requireHistory().versions("build-tool", Scope.PROJECT)).extracting(MemoryEntry::value)
                    .containsExactly("We use Maven.", "We use Maven 3.9 with the wrapper.");
        }
    }

    @Test
    void a_file_saved_by_renaming_in_the_session_directory_is_seen_at_the_next_call() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("todo", "Fix the build.", Scope.SESSION);
            Path head = fileOf(provider.sessionDirectory(), "todo", 1);

            Stores.saveByRename(head, read(head).replace("Fix the build.", "Fix the build, then the docs."));

            assertThat(provider.get("todo", Scope.SESSION).orElseThrow().value()).isEqualTo("Fix the build, then the docs.");
        }
    }

    @Test
    void a_new_file_with_only_a_key_is_read_as_version_1_stamped_with_the_file_time() throws IOException {
        Path directory = projectDirectory(base);
        Files.createDirectories(directory);
        Path file = newMemoryFile(directory);
        Files.writeString(file, "---\nkey: note\n---\nhello\n", StandardCharsets.UTF_8);
        Instant fileTime = Instant.parse("2025-03-04T05:06:07.890Z");
        Files.setLastModifiedTime(file, FileTime.from(fileTime));

        try (MarkdownMemoryProvider provider = open(base)) {
            MemoryEntry entry = provider.get("note", Scope.PROJECT).orElseThrow();
            assertThat(entry.value()).isEqualTo("hello");
            assertThat(entry.version()).isEqualTo(1);
            assertThat(entry.createdAt()).isEqualTo(fileTime);
            assertThat(entry.updatedAt()).isEqualTo(fileTime);
            assertThat(entry.tags()).isEmpty();
            assertThat(entry.metadata()).isEmpty();
            assertThat(entry.scope()).isEqualTo(Scope.PROJECT);
            assertThat(provider.latestVersion(Stores.id(file))).contains(entry);
            assertThat(provider.doctor()).isEmpty();

            // The provider continues the person's memory like its own.
            MemoryEntry next = provider.set("note", "hello again", Scope.PROJECT);
            assertThat(next.version()).isEqualTo(2);
            assertThat(next.createdAt()).isEqualTo(fileTime);
            Path written = fileOf(directory, "note", 2);
            assertThat(frontMatter(written)).containsEntry("supersedes", Stores.id(file));
        }
        // The person's file is left as they wrote it.
        assertThat(read(file)).isEqualTo("---\nkey: note\n---\nhello\n");
    }

    @Test
    void a_new_file_added_while_open_is_seen_at_the_next_call() throws IOException {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("existing", "so the directory exists", Scope.PROJECT);
            assertThat(provider.get("note", Scope.PROJECT)).isEmpty();

            Stores.create(newMemoryFile(provider.projectDirectory()),
                    "---\nkey: note\n---\nhello\n".getBytes(StandardCharsets.UTF_8));

            assertThat(provider.get("note", Scope.PROJECT).map(MemoryEntry::value)).contains("hello");
        }
    }

    @Test
    void deleting_the_head_file_makes_the_previous_version_current() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("db", "Postgres 15.", Scope.PROJECT);
            provider.set("db", "Postgres 16.", Scope.PROJECT);
            Path head = fileOf(provider.projectDirectory(), "db", 2);

            Stores.delete(head);

            MemoryEntry entry = provider.get("db", Scope.PROJECT).orElseThrow();
            assertThat(entry.value()).isEqualTo("Postgres 15.");
            assertThat(entry.version()).isEqualTo(1);
            assertThat(provider.requireHistory().versions("db", Scope.PROJECT)).extracting(MemoryEntry::version)
                    .containsExactly(1L);
            assertThat(provider.doctor()).isEmpty();
            // The next write follows the version that is current now.
            assertThat(provider.set("db", "Postgres 17.", Scope.PROJECT).version()).isEqualTo(2);
        }
    }

    @Test
    void deleting_the_only_file_removes_the_memory() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("db", "Postgres 15.", Scope.PROJECT);
            provider.set("other", "stays", Scope.PROJECT);

            Stores.delete(fileOf(provider.projectDirectory(), "db", 1));

            assertThat(provider.get("db", Scope.PROJECT)).isEmpty();
            assertThat(provider.query(Query.of("*", Scope.PROJECT))).extracting(MemoryEntry::key).containsExactly("other");
        }
    }

    @Test
    void tags_metadata_category_and_trigger_written_by_hand_appear_in_the_entry() throws IOException {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("existing", "so the directory exists", Scope.PROJECT);
            Path file = newMemoryFile(provider.projectDirectory());
            Stores.create(file, ("---\n"
                    + "key: release-process\n"
                    + "tags: [release, ci]\n"
                    + "category: decision\n"
                    + "trigger: the 1.2 release went wrong\n"
                    + "metadata:\n"
                    + "  owner: ana\n"
                    + "  priority: 2\n"
                    + "---\n"
                    + "Tag from main only.\n").getBytes(StandardCharsets.UTF_8));

            MemoryEntry entry = provider.get("release-process", Scope.PROJECT).orElseThrow();
            assertThat(entry.tags()).containsExactly("release", "ci");
            assertThat(entry.metadata()).containsEntry("owner", "ana").containsEntry("priority", 2L)
                    .containsEntry("category", "decision").containsEntry("trigger", "the 1.2 release went wrong")
                    .hasSize(4);
            assertThat(provider.query(Query.builder().pattern("*").scopes(Scope.PROJECT).tag("ci").build()))
                    .extracting(MemoryEntry::key).containsExactly("release-process");
            assertThat(provider.search(SearchRequest.keyword("release"))).extracting(h -> h.entry().key())
                    .contains("release-process");
        }
    }

    @Test
    void a_single_tag_written_without_a_list_is_one_tag() throws IOException {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("existing", "so the directory exists", Scope.PROJECT);
            Stores.create(newMemoryFile(provider.projectDirectory()),
                    "---\nkey: k\ntags: build\n---\nbody\n".getBytes(StandardCharsets.UTF_8));
            assertThat(provider.get("k", Scope.PROJECT).orElseThrow().tags()).containsExactly("build");
        }
    }

    @Test
    void category_and_trigger_metadata_are_written_as_front_matter_fields() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("k", "v", Scope.PROJECT, List.of("a"),
                    Map.of("category", "preference", "trigger", "asked twice", "owner", "ana"));
            Path file = fileOf(provider.projectDirectory(), "k", 1);

            Map<String, Object> fields = frontMatter(file);
            assertThat(fields).containsEntry("category", "preference").containsEntry("trigger", "asked twice")
                    .containsEntry("metadata", Map.of("owner", "ana"));
            assertThat(provider.get("k", Scope.PROJECT).orElseThrow().metadata())
                    .isEqualTo(Map.of("category", "preference", "trigger", "asked twice", "owner", "ana"));
        }
    }

    @Test
    void unknown_fields_a_person_added_survive_the_next_version() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("api-style", "REST.", Scope.PROJECT);
            Path head = fileOf(provider.projectDirectory(), "api-style", 1);
            Stores.saveByRename(head, withField(read(head), "reviewed_by: ana\nreview:\n  date: next week\n  ok: true\n"));

            provider.set("api-style", "REST with JSON:API.", Scope.PROJECT);

            Path next = fileOf(provider.projectDirectory(), "api-style", 2);
            assertThat(read(next)).contains("\nreviewed_by: ana\n");
            Map<String, Object> fields = frontMatter(next);
            assertThat(fields).containsEntry("reviewed_by", "ana")
                    .containsEntry("review", Map.of("date", "next week", "ok", true));
            assertThat(fields).containsEntry("supersedes", Stores.id(head));
            assertThat(bodyText(read(next))).isEqualTo("REST with JSON:API.\n");
        }
    }

    @Test
    void unknown_fields_a_person_added_survive_relate_and_unrelate_rewriting_the_head() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("api-style", "REST.", Scope.PROJECT);
            provider.set("errors", "Problem details.", Scope.PROJECT);
            Path head = fileOf(provider.projectDirectory(), "api-style", 1);
            Stores.saveByRename(head, withField(read(head), "reviewed_by: ana\n"));

            EntryRef from = EntryRef.of("api-style", Scope.PROJECT);
            EntryRef to = EntryRef.of("errors", Scope.PROJECT);
            provider.requireGraph().relate(from, to, "refines");

            String rewritten = read(head);
            assertThat(rewritten).contains("\nreviewed_by: ana\n");
            assertThat(frontMatter(head)).containsKey("related");
            assertThat(bodyText(rewritten)).isEqualTo("REST.\n");

            assertThat(provider.requireGraph().unrelate(from, to, "refines")).isTrue();
            assertThat(read(head)).contains("\nreviewed_by: ana\n");
            assertThat(frontMatter(head)).doesNotContainKey("related");
        }
    }

    @Test
    void relations_written_by_hand_by_key_are_followed_and_bad_relationship_words_reported() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("errors", "Problem details.", Scope.PROJECT);
            provider.set("style", "Global style.", Scope.GLOBAL);
            Path file = newMemoryFile(provider.projectDirectory());
            Stores.create(file, ("---\n"
                    + "key: api-style\n"
                    + "related:\n"
                    + "  - key: errors\n"
                    + "    relationship: relates-to\n"
                    + "  - key: style\n"
                    + "    scope: global\n"
                    + "    relationship: refines\n"
                    + "  - key: errors\n"
                    + "    relationship: not a word\n"
                    + "---\n"
                    + "REST.\n").getBytes(StandardCharsets.UTF_8));

            EntryRef from = EntryRef.of("api-style", Scope.PROJECT);
            assertThat(provider.requireGraph().relations(from, Direction.OUTGOING))
                    .extracting(r -> r.type() + " " + r.to().key() + " " + r.to().scope())
                    .containsExactlyInAnyOrder("relates_to errors PROJECT", "refines style GLOBAL");
            assertThat(provider.doctor()).extracting(StoreProblem::location).containsExactly(file.toString());

            // A relation by key follows the key: a new version of the target is still related.
            provider.set("errors", "RFC 9457 problem details.", Scope.PROJECT);
            assertThat(provider.requireGraph().relations(EntryRef.of("errors", Scope.PROJECT), Direction.INCOMING))
                    .extracting(r -> r.from().key()).containsExactly("api-style");
        }
    }

    @Test
    void a_file_with_crlf_line_endings_is_read() throws IOException {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("existing", "so the directory exists", Scope.PROJECT);
            Stores.create(newMemoryFile(provider.projectDirectory()), ("---\r\n"
                    + "key: windows-note\r\n"
                    + "tags: [a, b]\r\n"
                    + "category: howto\r\n"
                    + "---\r\n"
                    + "line one\r\n"
                    + "line two\r\n").getBytes(StandardCharsets.UTF_8));
            Stores.create(newMemoryFile(provider.projectDirectory()),
                    "---\r\nkey: short\r\n---\r\nhello\r\n".getBytes(StandardCharsets.UTF_8));

            MemoryEntry entry = provider.get("windows-note", Scope.PROJECT).orElseThrow();
            assertThat(entry.tags()).containsExactly("a", "b");
            assertThat(entry.metadata()).isEqualTo(Map.of("category", "howto"));
            // The final line break belongs to the file, not the value; inner ones may keep the person's CR.
            assertThat(entry.value()).doesNotEndWith("\n").doesNotEndWith("\r");
            assertThat(entry.value().replace("\r\n", "\n")).isEqualTo("line one\nline two");
            assertThat(provider.get("short", Scope.PROJECT).orElseThrow().value()).isEqualTo("hello");
            assertThat(provider.doctor()).isEmpty();
        }
    }
}
