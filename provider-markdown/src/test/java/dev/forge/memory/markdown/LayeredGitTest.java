package dev.forge.memory.markdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Scope;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jgit.diff.DiffEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code layout: layered} with {@code git: true}: a write of a layered key commits its document with its version file,
 * sessions stay out of the repository, and an edit another tool made to a document is reported, then committed with
 * the next write.
 */
class LayeredGitTest {

    private static final String KEY = "skills/python-code-review/my-api/review_history";

    @TempDir
    Path base;

    private MarkdownMemoryProvider open() {
        return Stores.open(base, new MarkdownConfig("memory", null, null, false, MarkdownConfig.Layout.LAYERED, true, null));
    }

    private Path memory() {
        return base.resolve("memory");
    }

    @Test
    void documents_are_committed_with_their_versions_and_sessions_are_not() throws IOException {
        try (MarkdownMemoryProvider provider = open()) {
            provider.set(KEY, "<!-- Last Updated: 2026-02-10 -->\n\n# Review History\n", Scope.PROJECT);
            provider.set("scratch", "session note", Scope.SESSION);

            Map<String, DiffEntry.ChangeType> first = GitRepos.lastChanges(memory());
            assertThat(GitRepos.messages(memory()).get(0)).isEqualTo("set project " + KEY + " (v1)");
            assertThat(first).containsEntry(KEY + ".md", DiffEntry.ChangeType.ADD);
            assertThat(first.keySet()).anyMatch(p -> p.startsWith(".forge/versions/mem_") && p.endsWith(".md"));
            assertThat(GitRepos.headFiles(memory()).keySet()).noneMatch(p -> p.contains("/session/"));
            assertThat(GitRepos.headFiles(memory()).get(KEY + ".md"))
                    .isEqualTo("<!-- Last Updated: 2026-02-10 -->\n\n# Review History\n");
            assertThat(GitRepos.clean(memory())).isTrue();

            // The plugin edits its file directly, as it always has.
            Files.writeString(memory().resolve(KEY + ".md"),
                    "<!-- Last Updated: 2026-02-11 -->\n\n# Review History\n\n## Review 1\n", StandardCharsets.UTF_8);
            provider.refresh();
            assertThat(provider.changedSinceLoad().orElseThrow().changed()).isTrue();
            assertThat(provider.changedSinceLoad().orElseThrow().directories().get(0).uncommitted()).containsExactly(KEY + ".md");

            provider.delete(KEY, Scope.PROJECT);

            assertThat(GitRepos.messages(memory()).get(0)).isEqualTo("delete project " + KEY);
            assertThat(GitRepos.lastChanges(memory())).containsEntry(KEY + ".md", DiffEntry.ChangeType.DELETE);
            assertThat(GitRepos.headFiles(memory())).doesNotContainKey(KEY + ".md");
            // The edit is in the history, recorded by the delete's commit as a version file.
            assertThat(provider.requireHistory().versions(KEY, Scope.PROJECT)).extracting(e -> e.value())
                    .contains("<!-- Last Updated: 2026-02-11 -->\n\n# Review History\n\n## Review 1\n");
            assertThat(GitRepos.clean(memory())).isTrue();
        }
    }
}
