package dev.forge.memory.markdown;

import static dev.forge.memory.markdown.GitRepos.changes;
import static dev.forge.memory.markdown.GitRepos.clean;
import static dev.forge.memory.markdown.GitRepos.diskFiles;
import static dev.forge.memory.markdown.GitRepos.headFiles;
import static dev.forge.memory.markdown.GitRepos.lastChanges;
import static dev.forge.memory.markdown.GitRepos.log;
import static dev.forge.memory.markdown.GitRepos.messages;
import static dev.forge.memory.markdown.GitRepos.relative;
import static dev.forge.memory.markdown.Stores.fileOf;
import static dev.forge.memory.markdown.Stores.memoryFiles;
import static dev.forge.memory.markdown.Stores.projectDirectory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;
import static org.eclipse.jgit.diff.DiffEntry.ChangeType.ADD;
import static org.eclipse.jgit.diff.DiffEntry.ChangeType.DELETE;
import static org.eclipse.jgit.diff.DiffEntry.ChangeType.MODIFY;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.spi.ProviderConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code git: true}: one commit per write, of exactly the files it changed, with a message naming it. */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class GitCommitTest {

    private static final Logger LOG = LoggerFactory.getLogger(GitCommitTest.class);

    @TempDir
    Path base;

    private MarkdownMemoryProvider open() {
        return GitRepos.openWithGit(base);
    }

    /** HEAD holds exactly the files on disk (less the provider's own), with the same content, and git status is clean. */
    private static void assertCommittedAsOnDisk(Path directory) {
        assertThat(headFiles(directory)).isEqualTo(diskFiles(directory));
        assertThat(clean(directory)).as("git status in %s is clean", directory).isTrue();
    }

    private static Map<String, DiffEntry.ChangeType> added(Path directory, Path... files) {
        return java.util.Arrays.stream(files).collect(Collectors.toMap(f -> relative(directory, f), f -> ADD));
    }

    @Test
    void every_operation_makes_one_commit_of_exactly_its_files() {
        Path project = projectDirectory(base);
        try (MarkdownMemoryProvider provider = open()) {
            assertThat(project).doesNotExist();

            provider.set("build-tool", "maven", Scope.PROJECT);
            Path v1 = fileOf(project, "build-tool", 1);
            assertThat(messages(project)).containsExactly("set project build-tool (v1)");
            assertThat(lastChanges(project)).containsOnly(entry(".gitignore", ADD), entry(relative(project, v1), ADD));
            assertCommittedAsOnDisk(project);

            provider.set("build-tool", "gradle", Scope.PROJECT);
            Path v2 = fileOf(project, "build-tool", 2);
            assertThat(messages(project)).hasSize(2).first().isEqualTo("set project build-tool (v2)");
            assertThat(lastChanges(project)).isEqualTo(added(project, v2));

            provider.set("java", "17", Scope.PROJECT);
            Path java = fileOf(project, "java", 1);
            EntryRef from = new EntryRef("build-tool", Scope.PROJECT);
            EntryRef to = new EntryRef("java", Scope.PROJECT);
            provider.requireGraph().relate(from, to, "refines");
            assertThat(messages(project)).first().isEqualTo("relate project build-tool -refines-> project java");
            assertThat(lastChanges(project)).containsOnly(entry(relative(project, v2), MODIFY));
            assertThat(headFiles(project).get(relative(project, v2))).contains("relationship: refines");

            provider.requireGraph().unrelate(from, to, "refines");
            assertThat(messages(project)).first().isEqualTo("unrelate project build-tool -refines-> project java");
            assertThat(lastChanges(project)).containsOnly(entry(relative(project, v2), MODIFY));
            assertThat(headFiles(project).get(relative(project, v2))).doesNotContain("refines");

            provider.delete("build-tool", Scope.PROJECT);
            Path tombstone = fileOf(project, "build-tool", 3);
            assertThat(messages(project)).first().isEqualTo("delete project build-tool");
            assertThat(lastChanges(project)).isEqualTo(added(project, tombstone));

            assertThat(provider.clear(Scope.PROJECT)).isEqualTo(1);
            Path javaTombstone = fileOf(project, "java", 2);
            assertThat(messages(project)).first().isEqualTo("clear project (1 memory)");
            assertThat(lastChanges(project)).isEqualTo(added(project, javaTombstone));
            assertCommittedAsOnDisk(project);

            assertThat(provider.requireHistory().purge("build-tool", Scope.PROJECT)).isTrue();
            assertThat(messages(project)).first().isEqualTo("purge project build-tool");
            assertThat(lastChanges(project)).containsOnly(entry(relative(project, v1), DELETE),
                    entry(relative(project, v2), DELETE), entry(relative(project, tombstone), DELETE));

            assertThat(provider.requireHistory().purge(Scope.PROJECT)).isEqualTo(1);
            assertThat(messages(project)).first().isEqualTo("purge project (1 key)");
            assertThat(lastChanges(project)).containsOnly(entry(relative(project, java), DELETE),
                    entry(relative(project, javaTombstone), DELETE));

            Instant t0 = Instant.parse("2020-01-02T03:04:05.006Z");
            provider.requireRestoring().restore(List.of(
                    new MemoryEntry("imported", "one", Scope.PROJECT, List.of(), Map.of(), t0, t0, 1),
                    new MemoryEntry("imported", "two", Scope.PROJECT, List.of(), Map.of(), t0, t0.plus(Duration.ofDays(1)), 2)));
            assertThat(messages(project)).first().isEqualTo("restore project imported (2 versions)");
            assertThat(lastChanges(project)).isEqualTo(added(project, fileOf(project, "imported", 1),
                    fileOf(project, "imported", 2)));
            assertCommittedAsOnDisk(project);

            assertThat(messages(project)).hasSize(10);
            // Every commit by the default author, as committer too.
            assertThat(log(project)).allSatisfy(commit -> {
                assertThat(commit.getAuthorIdent().getName()).isEqualTo("forge-memory");
                assertThat(commit.getAuthorIdent().getEmailAddress()).isEqualTo("forge-memory@localhost");
                assertThat(commit.getCommitterIdent().getName()).isEqualTo("forge-memory");
            });
            assertThat(provider.gitStatus()).extracting(GitStatus::on).containsExactly(true, true);
            assertThat(provider.doctor()).isEmpty();
        }
    }

    @Test
    void writes_that_change_nothing_make_no_commit() {
        Path project = projectDirectory(base);
        try (MarkdownMemoryProvider provider = open()) {
            provider.set("a", "1", Scope.PROJECT);
            provider.set("b", "2", Scope.PROJECT);
            EntryRef a = new EntryRef("a", Scope.PROJECT);
            EntryRef b = new EntryRef("b", Scope.PROJECT);
            provider.requireGraph().relate(a, b, "uses");
            int commits = log(project).size();

            assertThat(provider.delete("missing", Scope.PROJECT)).isFalse();
            provider.requireGraph().relate(a, b, "uses"); // there already
            assertThat(provider.requireGraph().unrelate(a, b, "other")).isFalse();
            assertThat(provider.requireHistory().purge("missing", Scope.PROJECT)).isFalse();
            assertThatThrownBy(() -> provider.requireGraph().relate(a, new EntryRef("missing", Scope.PROJECT), "uses"))
                    .isInstanceOf(dev.forge.memory.EntryNotFoundException.class);

            assertThat(log(project)).hasSize(commits);
        }
    }

    @Test
    void global_memories_have_their_own_repository_and_sessions_are_never_committed() throws IOException {
        Path project = projectDirectory(base);
        try (MarkdownMemoryProvider provider = open()) {
            Path global = provider.globalDirectory();
            provider.set("style", "tabs", Scope.GLOBAL);
            assertThat(messages(global)).containsExactly("set global style (v1)");
            assertThat(project.resolve(".git")).doesNotExist();

            provider.set("p", "project", Scope.PROJECT);
            provider.set("s", "session", Scope.SESSION);
            provider.set("s", "session again", Scope.SESSION);
            // A temporary file another writer is in the middle of.
            Files.writeString(project.resolve(".tmp-0123456789abcdef"), "half", StandardCharsets.UTF_8);
            provider.set("p", "project again", Scope.PROJECT);
            assertThat(provider.endSession()).isEqualTo(1);
            assertThat(provider.sessionDirectory()).doesNotExist();

            assertThat(messages(project)).containsExactly("set project p (v2)", "set project p (v1)");
            assertThat(messages(global)).containsExactly("set global style (v1)");
            for (Path directory : List.of(project, global)) {
                for (RevCommit commit : log(directory)) {
                    assertThat(changes(directory, commit).keySet()).allSatisfy(path -> assertThat(path)
                            .matches("\\.gitignore|mem_[0-9a-f-]{36}\\.md"));
                }
                assertThat(Files.readAllLines(directory.resolve(".gitignore"))).contains("/.lock", "/.generation",
                        "/session/", ".tmp-*");
                assertThat(directory.resolve(".lock")).exists();
                assertThat(directory.resolve(".generation")).exists();
            }
            assertThat(headFiles(project).keySet()).containsExactlyInAnyOrder(".gitignore",
                    relative(project, fileOf(project, "p", 1)), relative(project, fileOf(project, "p", 2)));
            assertThat(clean(project)).isTrue();
        }
    }

    @Test
    void a_store_written_without_git_gets_a_first_commit_of_its_files_at_the_first_write_with_git() {
        Path project = projectDirectory(base);
        try (MarkdownMemoryProvider provider = Stores.open(base, new MarkdownConfig(null, null, null, false))) {
            provider.set("a", "1", Scope.PROJECT);
            provider.set("a", "2", Scope.PROJECT);
            provider.set("b", "3", Scope.PROJECT);
            provider.set("s", "session", Scope.SESSION);
        }
        List<Path> before = memoryFiles(project);
        try (MarkdownMemoryProvider provider = open()) {
            provider.get("a", Scope.PROJECT);
            assertThat(project.resolve(".git")).as("opening and reading create nothing").doesNotExist();
            assertThat(provider.changedSinceLoad().orElseThrow().changed()).isFalse();

            provider.set("c", "4", Scope.PROJECT);
            assertThat(messages(project)).containsExactly("set project c (v1)", "record the memories already here (4 files)");
            List<RevCommit> commits = log(project);
            Map<String, DiffEntry.ChangeType> first = changes(project, commits.get(1));
            assertThat(first.keySet()).containsExactlyInAnyOrderElementsOf(
                    java.util.stream.Stream.concat(java.util.stream.Stream.of(".gitignore"),
                            before.stream().map(f -> relative(project, f))).toList());
            assertThat(changes(project, commits.get(0))).isEqualTo(added(project, fileOf(project, "c", 1)));
            assertCommittedAsOnDisk(project);
            assertThat(provider.changedSinceLoad().orElseThrow().changed()).isFalse();
        }
    }

    @Test
    void a_repository_the_user_made_is_used_as_it_is_and_the_projects_own_repository_gets_nothing() throws Exception {
        Path project = projectDirectory(base);
        Files.createDirectories(project);
        RevCommit projectsOwn;
        RevCommit usersFirst;
        try (Git projectRepo = Git.init().setDirectory(base.toFile()).call();
                Git memories = Git.init().setDirectory(project.toFile()).call()) {
            Files.writeString(base.resolve("README.md"), "the project\n");
            projectsOwn = GitRepos.commitAsOtherTool(base, "the project's own commit", "README.md");
            Files.writeString(project.resolve("NOTES.md"), "my notes\n");
            Files.writeString(project.resolve(".gitignore"), "*.bak\n");
            usersFirst = GitRepos.commitAsOtherTool(project, "my own first commit", "NOTES.md", ".gitignore");
        }
        try (MarkdownMemoryProvider provider = open()) {
            provider.set("k", "v", Scope.PROJECT);
        }
        assertThat(log(project)).hasSize(2);
        assertThat(log(project).get(1)).isEqualTo(usersFirst);
        assertThat(log(project).get(0).getParent(0)).isEqualTo(usersFirst);
        assertThat(lastChanges(project)).containsOnly(entry(".gitignore", MODIFY),
                entry(relative(project, fileOf(project, "k", 1)), ADD));
        assertThat(Files.readString(project.resolve(".gitignore"))).startsWith("*.bak\n").contains("/.lock\n");
        assertThat(headFiles(project)).containsEntry("NOTES.md", "my notes\n");
        assertCommittedAsOnDisk(project);
        // The project's repository, a parent of the memory directory, is as it was.
        assertThat(log(base)).containsExactly(projectsOwn);
    }

    @Test
    void the_factory_binds_git_and_git_author() {
        MarkdownMemoryProviderFactory factory = new MarkdownMemoryProviderFactory();
        try (MemoryProvider provider = factory.open(Stores.context(base).withConfig(ProviderConfig.of(Map.of(
                "git", true, "git_author", "Ann Example <ann@example.org>", "fsync", false))))) {
            provider.set("k", "v", Scope.PROJECT);
        }
        PersonIdent author = log(projectDirectory(base)).get(0).getAuthorIdent();
        assertThat(author.getName()).isEqualTo("Ann Example");
        assertThat(author.getEmailAddress()).isEqualTo("ann@example.org");
        assertThat(log(projectDirectory(base)).get(0).getCommitterIdent()).isEqualTo(author);

        assertThatThrownBy(() -> factory.open(Stores.context(base).withConfig(ProviderConfig.of(Map.of(
                "git", true, "git_author", "nobody")))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("git_author")
                .hasMessageContaining("Ann <ann@example.org>");
        assertThatThrownBy(() -> factory.open(Stores.context(base).withConfig(ProviderConfig.of(Map.of("gti", true)))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("gti").hasMessageContaining("git");
        assertThat(MarkdownConfig.defaults().git()).isFalse();
        assertThat(MarkdownConfig.defaults().gitAuthor()).isEqualTo("forge-memory <forge-memory@localhost>");
    }

    @Test
    void git_off_in_the_configuration_creates_no_repository_and_says_so() {
        try (MarkdownMemoryProvider provider = Stores.open(base, new MarkdownConfig(null, null, null, false))) {
            provider.set("k", "v", Scope.PROJECT);
            provider.set("g", "v", Scope.GLOBAL);
            assertThat(provider.gitStatus()).hasSize(2).allSatisfy(status -> {
                assertThat(status.on()).isFalse();
                assertThat(status.offReason()).hasValueSatisfying(reason -> assertThat(reason)
                        .contains("off in the configuration").contains("git: true"));
            });
            assertThat(provider.gitStatus()).extracting(GitStatus::directory)
                    .containsExactly(provider.projectDirectory(), provider.globalDirectory());
            assertThat(provider.changedSinceLoad()).isEmpty();
            assertThat(provider.doctor()).isEmpty();
            assertThat(provider.projectDirectory().resolve(".git")).doesNotExist();
            assertThat(provider.globalDirectory().resolve(".git")).doesNotExist();
        }
    }

    @Test
    void a_commit_per_write_costs_this_much() {
        // No assertion on time: the numbers go to the log, for the documentation.
        int writes = 200;
        long[] nanos = new long[2];
        for (int round = 0; round < 2; round++) {
            boolean git = round == 1;
            Path directory = base.resolve(git ? "with-git" : "without-git");
            try (MarkdownMemoryProvider provider = MarkdownMemoryProvider.open(Stores.context(directory),
                    new MarkdownConfig(null, null, null, false, null, git, null))) {
                provider.set("warm-up", "x", Scope.PROJECT);
                long start = System.nanoTime();
                for (int i = 0; i < writes; i++) {
                    provider.set("key-" + (i % 20), "value " + i, Scope.PROJECT);
                }
                nanos[round] = System.nanoTime() - start;
            }
        }
        assertThat(messages(base.resolve("with-git").resolve(".forge/memory"))).hasSize(writes + 1);
        LOG.info("{} writes (fsync off): {} us per write without git, {} us with a commit per write", writes,
                nanos[0] / writes / 1000, nanos[1] / writes / 1000);
    }
}
