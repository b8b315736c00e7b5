package dev.forge.memory.markdown.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which keys have documents, where, and how a name that differs only in case is found. */
class LayeredPathsTest {

    @TempDir
    Path base;

    @Test
    void the_four_layers_of_the_plugin_are_layered_keys() {
        assertThat(List.of("projects/my-api/project_profile", "skills/python-code-review/my-api/review_history",
                "commands/my-api/command_history", "agents/hephaestus/forge_insights",
                "skills/generate-python-unit-tests/my-api/testing_patterns", "projects/e-commerce/v1.2_notes",
                "skills/s/p/review_history_archive", "projects/A/B"))
                .allMatch(LayeredPaths::isLayered);
        assertThat(LayeredPaths.documentPath("agents/hephaestus/forge_insights"))
                .contains("agents/hephaestus/forge_insights.md");
    }

    @Test
    void other_keys_have_no_document() {
        assertThat(List.of("build-tool", "projects/my-api", "projects/my-api/a/b", "skills/s/p", "skills/s/p/f/g",
                "commands/p", "agents/a/b/c", "Projects/a/b", "projects/../x", "projects/a/..", "projects/a/../b",
                "projects/a..b/c", "projects/.hidden/x", "projects/a/.x", "projects/a/x.", "projects/-a/x",
                "projects/a b/x", "projects/a/b\\c", "projects//x", "/projects/a/b", "projects/a/b/", "projects/a/\u00e9",
                "projects/a/index", "skills/s/p/lifecycle", "agents/a/quality_guidance", "commands/p/INDEX",
                "projects/a/" + "x".repeat(dev.forge.memory.support.LayeredKey.MAX_SEGMENT_LENGTH + 1)))
                .noneMatch(LayeredPaths::isLayered);
        assertThat(LayeredPaths.documentPath("projects/../../etc/passwd")).isEmpty();
        assertThat(LayeredPaths.isLayered("projects/a/" + "x".repeat(dev.forge.memory.support.LayeredKey.MAX_SEGMENT_LENGTH))).isTrue();
    }

    @Test
    void a_document_path_gives_back_its_key_and_nothing_else_does() {
        assertThat(LayeredPaths.keyOf("skills/s/p/known_issues.md")).contains("skills/s/p/known_issues");
        assertThat(LayeredPaths.keyOf("projects/p/notes.md.md")).contains("projects/p/notes.md");
        assertThat(LayeredPaths.keyOf("notes/readme.md")).isEmpty();
        assertThat(LayeredPaths.keyOf("projects/p/notes.txt")).isEmpty();
        assertThat(LayeredPaths.keyOf("skills/s/index.md")).isEmpty();
        assertThat(LayeredPaths.isStructural("index.md")).isTrue();
        assertThat(LayeredPaths.isStructural("Quality_Guidance.md")).isTrue();
        assertThat(LayeredPaths.isStructural("indexes.md")).isFalse();
    }

    @Test
    void a_name_listed_only_in_another_case_is_found_as_that_name() throws IOException {
        // What a case-insensitive file system opens for "my-api" when only "My-Api" exists: the store refuses it.
        Files.createDirectories(base.resolve("projects/My-Api"));
        Files.createDirectories(base.resolve("projects/other"));
        assertThat(Documents.listedName(base.resolve("projects"), "my-api")).contains("My-Api");
        assertThat(Documents.listedName(base.resolve("projects"), "My-Api")).contains("My-Api");
        assertThat(Documents.listedName(base.resolve("projects"), "missing")).isEmpty();
        assertThat(Documents.listedName(base.resolve("nowhere"), "x")).isEmpty();
    }
}
