package dev.forge.memory.markdown;

import static dev.forge.memory.markdown.GitRepos.log;
import static dev.forge.memory.markdown.Stores.projectDirectory;
import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Several providers, in one JVM or two, committing to one repository: every write committed, one line of history. */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class GitConcurrencyTest {

    private static final String KEY = "shared";
    private static final int WRITES = 25;

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @TempDir
    Path base;

    @TempDir
    Path signals;

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private MarkdownMemoryProvider open(String session) {
        return MarkdownMemoryProvider.open(Stores.context(base, session), GitRepos.gitConfig());
    }

    /**
     * The history is a line (one parent each, the first commit none) of exactly one commit per version of the key,
     * newest first, each adding that version's file; git status is clean.
     */
    private static void assertOneCommitPerVersionInALine(Path project, int versions) {
        List<RevCommit> commits = log(project);
        assertThat(commits).hasSize(versions);
        for (int i = 0; i < commits.size(); i++) {
            RevCommit commit = commits.get(i);
            assertThat(commit.getParentCount()).isEqualTo(i == commits.size() - 1 ? 0 : 1);
            if (i < commits.size() - 1) {
                assertThat(commit.getParent(0)).isEqualTo(commits.get(i + 1));
            }
            long version = versions - i;
            assertThat(commit.getFullMessage().strip()).isEqualTo("set project " + KEY + " (v" + version + ")");
            String file = GitRepos.relative(project, Stores.fileOf(project, KEY, version));
            assertThat(GitRepos.changes(project, commit)).containsKey(file).hasSize(i == commits.size() - 1 ? 2 : 1);
        }
        assertThat(GitRepos.headFiles(project)).isEqualTo(GitRepos.diskFiles(project));
        assertThat(GitRepos.clean(project)).isTrue();
    }

    @Test
    void two_providers_writing_at_once_commit_every_write_in_one_line() throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        try (MarkdownMemoryProvider first = open("a"); MarkdownMemoryProvider second = open("b")) {
            CompletableFuture<Void> a = CompletableFuture.runAsync(() -> write(first, "a ", start), threads);
            CompletableFuture<Void> b = CompletableFuture.runAsync(() -> write(second, "b ", start), threads);
            CompletableFuture.allOf(a, b).get(10, TimeUnit.MINUTES);

            assertOneCommitPerVersionInALine(projectDirectory(base), 2 * WRITES);
            assertThat(first.gitStatus()).extracting(GitStatus::on).containsExactly(true, true);
            assertThat(second.gitStatus()).extracting(GitStatus::on).containsExactly(true, true);
            // Each sees the other's commits as changes; its own are not.
            assertThat(first.changedSinceLoad().orElseThrow().changed()).isTrue();
            assertThat(first.changedSinceLoad().orElseThrow().directories().get(0).uncommitted()).isEmpty();
        }
        try (MarkdownMemoryProvider reopened = open("c")) {
            assertThat(reopened.changedSinceLoad().orElseThrow().changed()).isFalse();
            assertThat(reopened.requireHistory().versions(KEY, Scope.PROJECT)).extracting(MemoryEntry::version)
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, 2 * WRITES).boxed().toList());
        }
    }

    @Test
    void a_parent_and_a_child_process_commit_every_write_in_one_line() throws Exception {
        ProcessBuilder builder = new ProcessBuilder(ChildJvm.command(List.of("-XX:TieredStopAtLevel=1"), ChildWriter.class,
                base.toString(), KEY, Integer.toString(WRITES), signals.toString(), "git"));
        builder.redirectErrorStream(true);
        builder.redirectOutput(signals.resolve("child.log").toFile());
        try (MarkdownMemoryProvider provider = open("parent")) {
            Process child = builder.start();
            try {
                assertThat(ChildJvm.awaitFile(signals.resolve("ready"), Duration.ofMinutes(5)))
                        .as("the child opened its provider; its output:%n%s", childLog()).isTrue();
                ChildJvm.signal(signals.resolve("go"));
                for (int i = 0; i < WRITES; i++) {
                    provider.set(KEY, "parent " + i, Scope.PROJECT);
                    Thread.sleep(1); // an OS file lock is not fair: let a waiting child in
                }
                assertThat(child.waitFor(5, TimeUnit.MINUTES)).as("the child finished; its output:%n%s", childLog()).isTrue();
                assertThat(child.exitValue()).as("the child succeeded; its output:%n%s", childLog()).isZero();
            } finally {
                child.destroyForcibly();
            }
            assertThat(childLog()).doesNotContain("git is off").doesNotContain("Exception");
            assertOneCommitPerVersionInALine(projectDirectory(base), 2 * WRITES);
            assertThat(provider.gitStatus().get(0).on()).isTrue();
        }
    }

    private String childLog() throws IOException {
        Path log = signals.resolve("child.log");
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    }

    private static void write(MarkdownMemoryProvider provider, String prefix, CyclicBarrier start) {
        try {
            start.await(5, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        for (int i = 0; i < WRITES; i++) {
            provider.set(KEY, prefix + i, Scope.PROJECT);
        }
    }
}
