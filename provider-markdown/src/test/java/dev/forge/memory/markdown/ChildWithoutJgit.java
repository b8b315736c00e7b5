package dev.forge.memory.markdown;

import dev.forge.memory.Scope;
import java.nio.file.Path;

/**
 * The other process of {@link GitWithoutJgitTest}, run with a class path that lacks JGit: opens the provider on the
 * base directory given as the only argument with {@code git: true} (and touches no JGit class itself, nor GitRepos), writes and reads a memory, and prints what
 * {@link MarkdownMemoryProvider#gitStatus()} and {@link MarkdownMemoryProvider#doctor()} say, one per line. Exits 0
 * if the memory was written and read back; any failure exits non-zero with the stack trace on standard error.
 */
public final class ChildWithoutJgit {

    private ChildWithoutJgit() {
    }

    /** Runs the child; see the class comment. */
    public static void main(String[] args) {
        try (MarkdownMemoryProvider provider = MarkdownMemoryProvider.open(Stores.context(Path.of(args[0])),
                new MarkdownConfig(null, null, null, false, null, true, null))) {
            provider.set("k", "written without JGit", Scope.PROJECT);
            System.out.println("read: " + provider.get("k", Scope.PROJECT).orElseThrow().value());
            provider.gitStatus().forEach(status -> System.out.println("status: " + status.on() + " "
                    + status.offReason().orElse("")));
            provider.doctor().forEach(problem -> System.out.println("problem: " + problem.problem()));
            System.out.println("changes present: " + provider.changedSinceLoad().isPresent());
        }
        System.exit(0);
    }
}
