package dev.forge.memory.markdown;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * Reading the memory directories' git repositories with JGit, and acting on them as another tool would: never
 * through the provider.
 */
final class GitRepos {

    static final PersonIdent OTHER_TOOL = new PersonIdent("Other Tool", "other@example.org");

    private GitRepos() {
    }

    /** The config of the tests: git on, no fsync (faster; durability is not what they check). */
    static MarkdownConfig gitConfig() {
        return new MarkdownConfig(null, null, null, false, null, true, null);
    }

    static Git git(Path directory) {
        try {
            return Git.open(directory.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A provider with {@link #gitConfig()} on the store under {@code base}. */
    static MarkdownMemoryProvider openWithGit(Path base) {
        return Stores.open(base, gitConfig());
    }

    /** A provider with git on that has set {@code a} to "one" and {@code b} to "two" in the PROJECT scope, closed. */
    static void writeAandB(Path base) {
        try (MarkdownMemoryProvider provider = openWithGit(base)) {
            provider.set("a", "one", dev.forge.memory.Scope.PROJECT);
            provider.set("b", "two", dev.forge.memory.Scope.PROJECT);
        }
    }

    /** The commits reachable from HEAD, newest first; empty if there is no repository or no commit. */
    static List<RevCommit> log(Path directory) {
        if (!Files.isDirectory(directory.resolve(".git"))) {
            return List.of();
        }
        try (Git git = git(directory)) {
            if (git.getRepository().resolve(Constants.HEAD) == null) {
                return List.of();
            }
            List<RevCommit> commits = new ArrayList<>();
            git.log().call().forEach(commits::add);
            return commits;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GitAPIException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The subject lines of the commits, newest first. */
    static List<String> messages(Path directory) {
        return log(directory).stream().map(RevCommit::getFullMessage).map(String::strip).toList();
    }

    /** What {@code commit} did to each path, against its first parent: ADD, MODIFY or DELETE. */
    static Map<String, DiffEntry.ChangeType> changes(Path directory, RevCommit commit) {
        try (Git git = git(directory); RevWalk walk = new RevWalk(git.getRepository());
                TreeWalk tree = new TreeWalk(git.getRepository())) {
            RevCommit parsed = walk.parseCommit(commit);
            if (parsed.getParentCount() == 0) {
                tree.addTree(new EmptyTreeIterator());
            } else {
                tree.addTree(walk.parseCommit(parsed.getParent(0)).getTree());
            }
            tree.addTree(parsed.getTree());
            tree.setRecursive(true);
            Map<String, DiffEntry.ChangeType> changes = new TreeMap<>();
            for (DiffEntry entry : DiffEntry.scan(tree)) {
                changes.put(entry.getChangeType() == DiffEntry.ChangeType.DELETE ? entry.getOldPath() : entry.getNewPath(),
                        entry.getChangeType());
            }
            return changes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The changes of the newest commit. */
    static Map<String, DiffEntry.ChangeType> lastChanges(Path directory) {
        return changes(directory, log(directory).get(0));
    }

    /** Every file of HEAD's tree with its content. */
    static Map<String, String> headFiles(Path directory) {
        try (Git git = git(directory); RevWalk walk = new RevWalk(git.getRepository());
                TreeWalk tree = new TreeWalk(git.getRepository())) {
            Repository repository = git.getRepository();
            tree.addTree(walk.parseCommit(repository.resolve(Constants.HEAD)).getTree());
            tree.setRecursive(true);
            Map<String, String> files = new TreeMap<>();
            while (tree.next()) {
                ObjectId blob = tree.getObjectId(0);
                files.put(tree.getPathString(), new String(repository.open(blob).getBytes(), StandardCharsets.UTF_8));
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Every file under {@code directory} with its content, as git would see it: {@code .git} left out, and the
     * provider's own files ({@code .lock}, {@code .generation}, {@code session/}, temporary files) too.
     */
    static Map<String, String> diskFiles(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile)
                    .map(directory::relativize)
                    .filter(path -> {
                        String text = path.toString().replace('\\', '/');
                        return !text.startsWith(".git/") && !text.equals(".lock") && !text.equals(".generation")
                                && !text.startsWith("session/") && !path.getFileName().toString().startsWith(".tmp-");
                    })
                    .collect(Collectors.toMap(path -> path.toString().replace('\\', '/'), path -> Stores.read(directory.resolve(path)),
                            (a, b) -> a, TreeMap::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether git status finds nothing to commit: the index and the working tree agree with HEAD. */
    static boolean clean(Path directory) {
        try (Git git = git(directory)) {
            return git.status().call().isClean();
        } catch (GitAPIException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Commits {@code paths} as they are on disk (deleted ones removed), as another tool would. */
    static RevCommit commitAsOtherTool(Path directory, String message, String... paths) {
        try (Git git = git(directory)) {
            for (String path : paths) {
                if (Files.exists(directory.resolve(path))) {
                    git.add().addFilepattern(path).call();
                } else {
                    git.rm().setCached(true).addFilepattern(path).call();
                }
            }
            return git.commit().setMessage(message).setAuthor(OTHER_TOOL).setCommitter(OTHER_TOOL).setSign(false)
                    .setNoVerify(true).call();
        } catch (GitAPIException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The path of a memory file relative to its memory directory, as git names it. */
    static String relative(Path directory, Path file) {
        return directory.relativize(file).toString().replace('\\', '/');
    }

    /** Whether the {@code git} command is on the PATH and runs. */
    static boolean gitBinaryAvailable() {
        try {
            Process process = new ProcessBuilder("git", "--version").redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(5, TimeUnit.MINUTES) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Runs {@code git} in {@code directory} as another tool (its own name and email), failing on a non-zero exit. */
    static String gitBinary(Path directory, String... arguments) {
        List<String> command = new ArrayList<>(List.of("git", "-C", directory.toString(), "-c", "user.name=Other Tool",
                "-c", "user.email=other@example.org", "-c", "commit.gpgsign=false"));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
                throw new AssertionError("git " + String.join(" ", arguments) + " failed: " + output);
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
