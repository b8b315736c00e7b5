package dev.forge.memory.markdown;

import static dev.forge.memory.markdown.GitRepos.commitAsOtherTool;
import static dev.forge.memory.markdown.GitRepos.log;
import static dev.forge.memory.markdown.GitRepos.relative;
import static dev.forge.memory.markdown.Stores.fileOf;
import static dev.forge.memory.markdown.Stores.projectDirectory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.forge.memory.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.ResetCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link MarkdownMemoryProvider#changedSinceLoad()}: what other tools did, never what the provider did itself. */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class GitChangesTest {

    @TempDir
    Path base;

    private MarkdownMemoryProvider open() {
        return GitRepos.openWithGit(base);
    }

    private static GitChanges.Directory projectChanges(MarkdownMemoryProvider provider) {
        GitChanges changes = provider.changedSinceLoad().orElseThrow();
        assertThat(changes.directories()).extracting(GitChanges.Directory::directory)
                .containsExactly(provider.projectDirectory(), provider.globalDirectory());
        return changes.directories().get(0);
    }

    private static String head(Path directory) {
        return log(directory).get(0).name();
    }

    @Test
    void own_writes_are_no_change_and_another_tools_commit_is() {
        Path project = projectDirectory(base);
        try (MarkdownMemoryProvider provider = open()) {
            GitChanges before = provider.changedSinceLoad().orElseThrow();
            assertThat(before.changed()).isFalse();
            assertThat(before.directories().get(0).head()).isEmpty();

            provider.set("build-tool", "maven", Scope.PROJECT);
            provider.set("build-tool", "gradle", Scope.PROJECT);
            provider.set("java", "17", Scope.PROJECT);
            provider.delete("java", Scope.PROJECT);
            GitChanges.Directory own = projectChanges(provider);
            assertThat(own.changed()).isFalse();
            assertThat(own.committed()).isEmpty();
            assertThat(own.uncommitted()).isEmpty();
            assertThat(own.dirty()).isFalse();
            assertThat(own.head()).contains(head(project));
            assertThat(own.baseline()).as("moved along by the provider's own commits").isEqualTo(own.head());
            assertThat(provider.changedSinceLoad().orElseThrow().changed()).isFalse();

            // Another tool edits a memory file and commits it.
            Path v2 = fileOf(project, "build-tool", 2);
            String baseline = head(project);
            Stores.writeInPlace(v2, Stores.read(v2).replace("gradle", "gradle 8"));
            commitAsOtherTool(project, "fix the version", relative(project, v2));

            GitChanges.Directory changed = projectChanges(provider);
            assertThat(changed.changed()).isTrue();
            assertThat(changed.committed()).containsExactly(relative(project, v2));
            assertThat(changed.uncommitted()).isEmpty();
            assertThat(changed.baseline()).contains(baseline);
            assertThat(changed.head()).contains(head(project)).isNotEqualTo(changed.baseline());
            assertThat(provider.changedSinceLoad().orElseThrow().changed()).isTrue();

            // The provider's next write goes on top of the other tool's commit, and does not hide it.
            provider.set("editor", "vim", Scope.PROJECT);
            assertThat(log(project).get(0).getParent(0).getFullMessage()).isEqualTo("fix the version");
            GitChanges.Directory after = projectChanges(provider);
            assertThat(after.committed()).containsExactly(relative(project, v2));
            assertThat(after.baseline()).contains(baseline);
            assertThat(after.head()).contains(head(project));
        }
        // A provider opened now sees the store as it is: nothing changed since.
        try (MarkdownMemoryProvider reopened = open()) {
            assertThat(reopened.get("build-tool", Scope.PROJECT).orElseThrow().value()).isEqualTo("gradle 8");
            GitChanges.Directory fresh = projectChanges(reopened);
            assertThat(fresh.changed()).isFalse();
            assertThat(fresh.baseline()).contains(head(project));
        }
    }

    @Test
    void uncommitted_edits_count_from_the_open_on() throws Exception {
        Path project = projectDirectory(base);
        GitRepos.writeAandB(base);
        Path a = fileOf(project, "a", 1);
        Path b = fileOf(project, "b", 1);
        try (MarkdownMemoryProvider provider = open()) {
            assertThat(projectChanges(provider).changed()).isFalse();

            // Edited in place, not committed.
            Stores.writeInPlace(a, Stores.read(a).replace("one", "one, edited"));
            GitChanges.Directory edited = projectChanges(provider);
            assertThat(edited.changed()).isTrue();
            assertThat(edited.committed()).isEmpty();
            assertThat(edited.uncommitted()).containsExactly(relative(project, a));
            assertThat(edited.dirty()).isTrue();
            assertThat(edited.head()).isEqualTo(edited.baseline());

            // A new file and a deleted one, by hand.
            Path added = Stores.newMemoryFile(project);
            Stores.create(added, "---\nkey: c\n---\nthree\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            Stores.delete(b);
            assertThat(projectChanges(provider).uncommitted())
                    .containsExactlyInAnyOrder(relative(project, a), relative(project, added), relative(project, b));

            // The provider's own writes leave the other tool's edits uncommitted, and reported.
            provider.set("d", "four", Scope.PROJECT);
            assertThat(GitRepos.lastChanges(project).keySet()).containsExactly(relative(project, fileOf(project, "d", 1)));
            assertThat(projectChanges(provider).uncommitted())
                    .containsExactlyInAnyOrder(relative(project, a), relative(project, added), relative(project, b));
        }
        try (MarkdownMemoryProvider later = open()) {
            // Opened after the edits: they are the state it loaded, not a change since.
            GitChanges.Directory loaded = projectChanges(later);
            assertThat(loaded.changed()).isFalse();
            assertThat(loaded.dirty()).isTrue();

            // Until one of them changes again.
            Stores.writeInPlace(a, Stores.read(a).replace("one, edited", "one, edited twice"));
            assertThat(projectChanges(later).uncommitted()).containsExactly(relative(project, a));

            // Reverting an edit is a change too, from what was loaded.
            try (Git git = GitRepos.git(project)) {
                git.checkout().addPath(relative(project, b)).call();
            }
            assertThat(projectChanges(later).uncommitted())
                    .containsExactlyInAnyOrder(relative(project, a), relative(project, b));
        }
    }

    @Test
    void an_edit_the_provider_commits_itself_is_not_reported() {
        Path project = projectDirectory(base);
        GitRepos.writeAandB(base);
        Path a = fileOf(project, "a", 1);
        Stores.writeInPlace(a, Stores.read(a).replace("one", "one, by hand"));
        try (MarkdownMemoryProvider provider = open()) {
            assertThat(projectChanges(provider).changed()).isFalse();
            // Relating rewrites a's head, hand edit included, and commits it: a is clean now, and that is no change.
            provider.requireGraph().relate(new dev.forge.memory.EntryRef("a", Scope.PROJECT),
                    new dev.forge.memory.EntryRef("b", Scope.PROJECT), "uses");
            assertThat(GitRepos.headFiles(project).get(relative(project, a))).contains("one, by hand").contains("uses");
            GitChanges.Directory after = projectChanges(provider);
            assertThat(after.changed()).isFalse();
            assertThat(after.dirty()).isFalse();
        }
    }

    @Test
    void a_rewritten_history_reports_the_paths_it_undid() throws Exception {
        Path project = projectDirectory(base);
        try (MarkdownMemoryProvider provider = open()) {
            provider.set("a", "one", Scope.PROJECT);
            provider.set("b", "two", Scope.PROJECT);
            assertThat(projectChanges(provider).changed()).isFalse();
            Path b = fileOf(project, "b", 1);
            // Another tool throws the last commit away (files included): no new commit, but b is gone.
            try (Git git = GitRepos.git(project)) {
                git.reset().setMode(ResetCommand.ResetType.HARD).setRef("HEAD~1").call();
            }
            assertThat(b).doesNotExist();
            GitChanges.Directory changes = projectChanges(provider);
            assertThat(changes.changed()).isTrue();
            assertThat(changes.committed()).containsExactly(relative(project, b));
            assertThat(changes.uncommitted()).isEmpty();
        }
    }

    @Test
    void a_commit_by_the_git_command_is_seen() throws Exception {
        assumeTrue(GitRepos.gitBinaryAvailable(), "the git command is not on the PATH");
        Path project = projectDirectory(base);
        try (MarkdownMemoryProvider provider = open()) {
            provider.set("a", "one", Scope.PROJECT);
            Path a = fileOf(project, "a", 1);
            Stores.writeInPlace(a, Stores.read(a).replace("one", "one, from the shell"));
            assertThat(projectChanges(provider).uncommitted()).containsExactly(relative(project, a));

            GitRepos.gitBinary(project, "commit", "-q", "-am", "edited in the shell");
            GitChanges.Directory changes = projectChanges(provider);
            assertThat(changes.committed()).containsExactly(relative(project, a));
            assertThat(changes.uncommitted()).as("committed now, and it was clean at open").isEmpty();
            assertThat(changes.dirty()).isFalse();
            assertThat(GitRepos.gitBinary(project, "status", "--porcelain")).isEmpty();

            // And the provider's next commit is one git itself reads without complaint.
            provider.set("b", "two", Scope.PROJECT);
            assertThat(GitRepos.gitBinary(project, "log", "--format=%s")).isEqualTo("set project b (v1)\nedited in the shell\n"
                    + "set project a (v1)\n");
            assertThat(GitRepos.gitBinary(project, "status", "--porcelain")).isEmpty();
            assertThat(GitRepos.gitBinary(project, "fsck", "--strict")).doesNotContain("error");
        }
    }

    @Test
    void the_global_directory_is_watched_on_its_own() {
        try (MarkdownMemoryProvider provider = open()) {
            provider.set("style", "tabs", Scope.GLOBAL);
            provider.set("p", "x", Scope.PROJECT);
            Path global = provider.globalDirectory();
            Path style = fileOf(global, "style", 1);
            Stores.writeInPlace(style, Stores.read(style).replace("tabs", "spaces"));
            commitAsOtherTool(global, "spaces", relative(global, style));

            GitChanges changes = provider.changedSinceLoad().orElseThrow();
            assertThat(changes.changed()).isTrue();
            assertThat(changes.directories().get(0).changed()).isFalse();
            assertThat(changes.directories().get(1).directory()).isEqualTo(global);
            assertThat(changes.directories().get(1).committed()).containsExactly(relative(global, style));
            assertThat(Files.exists(global.resolve(".git"))).isTrue();
        }
    }
}
