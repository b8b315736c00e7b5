package dev.forge.memory.markdown;

import static dev.forge.memory.markdown.GitRepos.log;
import static dev.forge.memory.markdown.GitRepos.messages;
import static dev.forge.memory.markdown.Stores.projectDirectory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Git never costs a memory: a repository that cannot be used switches git off, says why, and writes go on. */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class GitOffTest {

    @TempDir
    Path base;

    /**
     * The provider opened on a project directory whose git cannot be used: writes succeed and are read back, by it
     * and by a provider opened later; git is off for the project directory with a reason containing {@code why}, on
     * for the global one; doctor lists exactly that.
     */
    private void assertWritesGoOnWithGitOff(MarkdownMemoryProvider provider, String why) {
        Path project = provider.projectDirectory();
        provider.set("build-tool", "maven", Scope.PROJECT);
        provider.set("build-tool", "gradle", Scope.PROJECT);
        provider.set("style", "tabs", Scope.GLOBAL);
        assertThat(provider.get("build-tool", Scope.PROJECT).orElseThrow().value()).isEqualTo("gradle");
        assertThat(provider.get("build-tool", Scope.PROJECT).orElseThrow().version()).isEqualTo(2);

        List<GitStatus> status = provider.gitStatus();
        assertThat(status.get(0).directory()).isEqualTo(project);
        assertThat(status.get(0).on()).isFalse();
        assertThat(status.get(0).offReason()).hasValueSatisfying(reason -> assertThat(reason).contains(why));
        assertThat(status.get(1).on()).isTrue();
        assertThat(messages(provider.globalDirectory())).containsExactly("set global style (v1)");

        List<StoreProblem> problems = provider.doctor();
        assertThat(problems).hasSize(1);
        assertThat(problems.get(0).location()).isEqualTo(project.toString());
        assertThat(problems.get(0).problem()).startsWith("git is off: ").contains(why);

        GitChanges changes = provider.changedSinceLoad().orElseThrow();
        assertThat(changes.directories()).extracting(GitChanges.Directory::directory)
                .containsExactly(provider.globalDirectory());

        try (MarkdownMemoryProvider reopened = Stores.open(base, new MarkdownConfig(null, null, null, false))) {
            assertThat(reopened.requireHistory().versions("build-tool", Scope.PROJECT))
                    .extracting(dev.forge.memory.MemoryEntry::value).containsExactly("maven", "gradle");
        }
    }

    @Test
    void a_dot_git_that_is_a_garbage_file_switches_git_off() throws IOException {
        Path project = projectDirectory(base);
        Files.createDirectories(project);
        Files.writeString(project.resolve(".git"), "this is not a repository\n", StandardCharsets.UTF_8);
        try (MarkdownMemoryProvider provider = GitRepos.openWithGit(base)) {
            assertThat(provider.gitStatus().get(0).on()).as("off from the open on").isFalse();
            assertWritesGoOnWithGitOff(provider, project.resolve(".git").toString());
        }
        assertThat(Files.readString(project.resolve(".git"))).isEqualTo("this is not a repository\n");
    }

    @Test
    void a_dot_git_directory_that_is_no_repository_switches_git_off() throws IOException {
        Path project = projectDirectory(base);
        Files.createDirectories(project.resolve(".git"));
        Files.writeString(project.resolve(".git/HEAD"), "garbage\n", StandardCharsets.UTF_8);
        try (MarkdownMemoryProvider provider = GitRepos.openWithGit(base)) {
            assertWritesGoOnWithGitOff(provider, "cannot be opened");
        }
    }

    @Test
    void a_repository_damaged_while_open_switches_git_off_at_the_next_commit() throws IOException {
        Path project = projectDirectory(base);
        try (MarkdownMemoryProvider provider = GitRepos.openWithGit(base)) {
            provider.set("first", "committed", Scope.PROJECT);
            assertThat(messages(project)).containsExactly("set project first (v1)");
            // Another tool leaves a damaged index behind.
            Files.writeString(project.resolve(".git/index"), "DIRC garbage", StandardCharsets.UTF_8);

            assertWritesGoOnWithGitOff(provider, "the commit of 'set project build-tool (v1)' failed");
            assertThat(messages(project)).containsExactly("set project first (v1)");
            provider.set("later", "still written", Scope.PROJECT);
            assertThat(provider.get("later", Scope.PROJECT)).isPresent();
            assertThat(log(project)).hasSize(1);
        }
    }

    @Test
    void an_index_lock_held_for_a_while_is_waited_for() throws Exception {
        Path project = projectDirectory(base);
        try (MarkdownMemoryProvider provider = GitRepos.openWithGit(base)) {
            provider.set("first", "1", Scope.PROJECT);
            Path lock = project.resolve(".git/index.lock");
            Files.writeString(lock, "another git command");
            CompletableFuture<Void> write = CompletableFuture.runAsync(() -> provider.set("second", "2", Scope.PROJECT));
            Thread.sleep(300);
            assertThat(write).as("waits for the lock").isNotDone();
            Files.delete(lock);
            write.get(10, TimeUnit.MINUTES);
            assertThat(messages(project)).containsExactly("set project second (v1)", "set project first (v1)");
            assertThat(provider.gitStatus().get(0).on()).isTrue();
            assertThat(GitRepos.clean(project)).isTrue();
        }
    }

    @Test
    void an_unreadable_repository_switches_git_off() throws IOException {
        Path project = projectDirectory(base);
        try (MarkdownMemoryProvider provider = GitRepos.openWithGit(base)) {
            provider.set("first", "1", Scope.PROJECT);
        }
        Path git = project.resolve(".git");
        Files.setPosixFilePermissions(git, PosixFilePermissions.fromString("---------"));
        try {
            assumeFalse(Files.isReadable(git), "this user reads files whatever their permissions (root)");
            try (MarkdownMemoryProvider provider = GitRepos.openWithGit(base)) {
                assertWritesGoOnWithGitOff(provider, git.toString());
            }
        } finally {
            Files.setPosixFilePermissions(git, PosixFilePermissions.fromString("rwx------"));
        }
    }
}
