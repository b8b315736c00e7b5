package dev.forge.memory.markdown;

import static dev.forge.memory.markdown.GitRepos.messages;
import static dev.forge.memory.markdown.Stores.projectDirectory;
import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Scope;
import dev.forge.memory.StoreProblem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * With {@code git: true}, memories are committed only to a repository inside the memory directory: a {@code .git} that
 * leads elsewhere (a {@code .git} file naming another repository, a link, a {@code commondir}) is refused, git is off
 * for that directory with a reason naming both places, the memories are written all the same, and the other repository
 * is not touched.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class GitDirOutsideTest {

    @TempDir
    Path base;

    /** How a {@code .git} in the memory directory leads to a repository elsewhere. */
    enum Redirect {
        /** A {@code .git} file with {@code gitdir: <elsewhere>/.git}, as a submodule's. */
        GITDIR_FILE,
        /** A {@code .git} file with a relative {@code gitdir: ../../elsewhere/.git}. */
        RELATIVE_GITDIR_FILE,
        /** A symbolic link {@code .git} to {@code <elsewhere>/.git}. */
        LINK,
        /** A {@code .git} directory of a linked work tree whose {@code commondir} is {@code <elsewhere>/.git}. */
        COMMONDIR
    }

    private Path elsewhere() {
        return base.resolve("elsewhere");
    }

    /** A repository outside the memory directory, with one commit. */
    private void createElsewhere() throws IOException, GitAPIException {
        Files.createDirectories(elsewhere());
        try (Git git = Git.init().setDirectory(elsewhere().toFile()).setInitialBranch("main").call()) {
            Files.writeString(elsewhere().resolve("README"), "someone else's project\n");
            git.add().addFilepattern("README").call();
            git.commit().setMessage("their commit").setAuthor(GitRepos.OTHER_TOOL).setCommitter(GitRepos.OTHER_TOOL)
                    .setSign(false).call();
        }
    }

    private void redirect(Redirect how, Path memory) throws IOException {
        Files.createDirectories(memory);
        Path dotGit = memory.resolve(".git");
        Path target = elsewhere().resolve(".git");
        switch (how) {
            case GITDIR_FILE -> Files.writeString(dotGit, "gitdir: " + target + "\n", StandardCharsets.UTF_8);
            case RELATIVE_GITDIR_FILE -> Files.writeString(dotGit, "gitdir: " + memory.relativize(target) + "\n",
                    StandardCharsets.UTF_8);
            case LINK -> Files.createSymbolicLink(dotGit, target);
            case COMMONDIR -> {
                Files.createDirectories(dotGit);
                Files.writeString(dotGit.resolve("commondir"), target + "\n", StandardCharsets.UTF_8);
                Files.writeString(dotGit.resolve("HEAD"), "ref: refs/heads/memories\n", StandardCharsets.UTF_8);
                Files.writeString(dotGit.resolve("gitdir"), dotGit + "\n", StandardCharsets.UTF_8);
            }
        }
    }

    /** Every file under {@code directory} (links not followed) with its content. */
    private static Map<String, String> snapshot(Path directory) {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(directory)) {
            for (Path path : walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).toList()) {
                files.put(directory.relativize(path).toString(), java.util.Arrays.toString(Files.readAllBytes(path)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    @ParameterizedTest
    @EnumSource(Redirect.class)
    void a_dot_git_leading_outside_the_memory_directory_is_refused_and_the_other_repository_is_untouched(Redirect how)
            throws Exception {
        createElsewhere();
        Path memory = projectDirectory(base);
        redirect(how, memory);
        Map<String, String> before = snapshot(elsewhere());

        try (MarkdownMemoryProvider provider = GitRepos.openWithGit(base)) {
            provider.set("secret-plan", "a private memory", Scope.PROJECT);
            provider.set("secret-plan", "still private", Scope.PROJECT);
            assertThat(provider.get("secret-plan", Scope.PROJECT).orElseThrow().value()).isEqualTo("still private");

            GitStatus project = provider.gitStatus().get(0);
            assertThat(project.on()).isFalse();
            assertThat(project.offReason()).hasValueSatisfying(reason -> assertThat(reason)
                    .contains("outside the memory directory").contains(memory.toString())
                    .contains(elsewhere().resolve(".git").toString()));
            assertThat(provider.doctor()).extracting(StoreProblem::problem)
                    .anySatisfy(problem -> assertThat(problem).startsWith("git is off: ").contains("outside"));
            // The global directory has a repository of its own, as ever.
            provider.set("style", "tabs", Scope.GLOBAL);
            assertThat(messages(provider.globalDirectory())).containsExactly("set global style (v1)");
        }
        assertThat(snapshot(elsewhere())).as("the repository outside the memory directory").isEqualTo(before);
    }

    @Test
    void a_dot_git_file_naming_a_repository_inside_the_memory_directory_is_followed() throws Exception {
        Path memory = projectDirectory(base);
        Files.createDirectories(memory);
        Path inside = memory.resolve(".repository");
        Git.init().setGitDir(inside.toFile()).setDirectory(memory.toFile()).setInitialBranch("main").call().close();
        Files.writeString(memory.resolve(".git"), "gitdir: .repository\n", StandardCharsets.UTF_8);

        try (MarkdownMemoryProvider provider = GitRepos.openWithGit(base)) {
            provider.set("build-tool", "maven", Scope.PROJECT);
            assertThat(provider.gitStatus().get(0).on()).isTrue();
        }
        try (Git git = Git.open(inside.toFile())) {
            assertThat(git.log().call().iterator().next().getFullMessage().strip()).isEqualTo("set project build-tool (v1)");
        }
    }
}
